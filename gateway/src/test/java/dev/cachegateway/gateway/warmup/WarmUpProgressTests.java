package dev.cachegateway.gateway.warmup;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.IntUnaryOperator;
import java.util.stream.IntStream;

import org.junit.jupiter.api.Test;

/** When the warm-up counts as done, second by second, on a compiler clock of its own. */
class WarmUpProgressTests {

    private final AtomicLong compilerMillis = new AtomicLong();

    private final WarmUpProgress progress = new WarmUpProgress(compilerMillis::get);

    @Test
    void isSteadyOnceTwoWindowsInARowGrewLittleAndTheCompilerIsNearlyIdle() {
        // 100, 200, ... 1,000 requests a second for 10 s, then 1,000 a second.
        int firstSteadySecond = secondsUntilSteady(second -> Math.min(1000, 100 * second), second -> 0);

        // The first three windows within 5% of each other: seconds 9-13, 14-18, 19-23.
        assertThat(firstSteadySecond).isEqualTo(23);
    }

    @Test
    void isNotSteadyWhileTheRateStillGrowsInSteps() {
        // 10% more every 5 s, as C2 compiles one path after another.
        int firstSteadySecond = secondsUntilSteady(second -> (int) (1000 * Math.pow(1.1, (second - 1) / 5)),
                second -> 0);

        assertThat(firstSteadySecond).isEqualTo(-1);
    }

    @Test
    void isNotSteadyWhileTheCompilerStillWorks() {
        // Flat from the start, the compiler busy for 30 s at 0.6 of a core, then idle.
        int firstSteadySecond = secondsUntilSteady(second -> 1000, second -> second <= 30 ? 600 : 0);

        // The last 5 s with less than 500 ms of compiling end at second 35.
        assertThat(firstSteadySecond).isEqualTo(35);
    }

    @Test
    void neverCallsItSteadyBeforeThreeWindows() {
        int firstSteadySecond = secondsUntilSteady(second -> 1000, second -> 0);

        assertThat(firstSteadySecond).isEqualTo(3 * WarmUpProgress.WINDOW_SECONDS);
        assertThat(progress.steady()).isTrue();
    }

    @Test
    void countsASlowerWindowAsFlat() {
        // Two seconds at half speed, as a collection or a noisy neighbour would cause.
        int firstSteadySecond = secondsUntilSteady(second -> second == 14 || second == 15 ? 500 : 1000, second -> 0);

        assertThat(firstSteadySecond).isEqualTo(15);
    }

    // The first second, counted from 1, after which the progress says steady; -1 if none
    // within 60.
    private int secondsUntilSteady(IntUnaryOperator answers, IntUnaryOperator compilingMillis) {
        return IntStream.rangeClosed(1, 60).filter(second -> {
            compilerMillis.addAndGet(compilingMillis.applyAsInt(second));
            return progress.steadyAfter(answers.applyAsInt(second));
        }).findFirst().orElse(-1);
    }

}
