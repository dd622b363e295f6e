package dev.cachegateway.gateway.memcached.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Outcome;
import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Progress;
import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Verdict;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class DeadlineJudgeTests {

    private static final long MS = 1_000_000;

    private static final Duration TIMEOUT = Duration.ofMillis(100);

    private static final Duration MAX_DELAY = Duration.ofSeconds(1);

    private final PauseDetector pauses = new PauseDetector(DeadlineJudge.minimumStall(TIMEOUT));

    private final DeadlineJudge judge = new DeadlineJudge(TIMEOUT, MAX_DELAY, pauses);

    // Far from now, so that the detector's own view of the present never reaches these
    // instants.
    private final long start = System.nanoTime() - Duration.ofHours(1).toNanos();

    private final long neverAnswered = start - Duration.ofHours(1).toNanos();

    private final Progress sentAtOnce = progress(false, Progress.UNKNOWN, neverAnswered);

    private final Progress answered = progress(true, Progress.UNKNOWN, neverAnswered);

    @Test
    void blamesMemcachedWhenTheGatewayNeverStalled() {
        assertThat(judge.judge(start, start + 100 * MS, sentAtOnce).outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void givesBackAPauseAndWaitsThatMuchMore() {
        pauses.record(start + 10 * MS, start + 80 * MS);

        Verdict verdict = judge.judge(start, start + 100 * MS, sentAtOnce);

        assertThat(verdict.outcome()).isEqualTo(Outcome.WAIT);
        assertThat(verdict.waitNanos()).isEqualTo(70 * MS);
    }

    @Test
    void blamesMemcachedOnceItHadTheWholeTimeoutBesidesThePause() {
        pauses.record(start + 10 * MS, start + 80 * MS);

        assertThat(judge.judge(start, start + 170 * MS, sentAtOnce).outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void countsOnlyThePartOfAPauseAfterTheOperationStarted() {
        pauses.record(start - 50 * MS, start + 30 * MS);

        assertThat(judge.judge(start, start + 100 * MS, sentAtOnce).waitNanos()).isEqualTo(30 * MS);
    }

    @Test
    void givesBackNoStallShorterThanATenthOfTheTimeout() {
        // What a busy machine's scheduler costs a sleeping thread: not a pause to give
        // back.
        pauses.record(start + 10 * MS, start + 19 * MS);
        pauses.record(start + 30 * MS, start + 39 * MS);

        assertThat(judge.judge(start, start + 100 * MS, sentAtOnce).outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void givesUpAsTheGatewaysDelayAfterTheLongestWaitWhenMemcachedHadLessThanHalfItsTimeout() {
        pauses.record(start, start + 1000 * MS);

        assertThat(judge.judge(start, start + 1000 * MS, sentAtOnce).outcome()).isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void neverWaitsPastTheLongestWait() {
        pauses.record(start, start + 950 * MS);

        assertThat(judge.judge(start, start + 980 * MS, sentAtOnce).waitNanos()).isEqualTo(20 * MS);
    }

    @Test
    void leavesAnAnsweredOperationToItsAnswer() {
        assertThat(judge.judge(start, start + 500 * MS, answered).outcome()).isEqualTo(Outcome.ANSWERED);
    }

    @Test
    void waitsForAnAnswerToReachItsCallerUntilATimeoutPastTheLongestWait() {
        assertThat(judge.judge(start, start + 500 * MS, answered).waitNanos()).isEqualTo(600 * MS);
    }

    @Test
    void givesUpAsTheGatewaysDelayOnAnAnswerThatNeverReachedItsCaller() {
        assertThat(judge.judge(start, start + 1100 * MS, answered).outcome()).isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void countsAStallStillUnderWayWhenTheDeadlineFires() {
        long now = System.nanoTime();

        // Asked 50 ms ahead of the detector's last wake, as a deadline is after a pause
        // that only just ended.
        assertThat(pauses.stalledNanos(now, now + 50 * MS)).isGreaterThanOrEqualTo(40 * MS);
    }

    @Test
    void holdsNothingAgainstMemcachedWhileTheOperationWaitsInTheGatewaysQueue() {
        Verdict verdict = judge.judge(start, start + 100 * MS, progress(false, Progress.NOT_SENT, neverAnswered));

        assertThat(verdict.outcome()).isEqualTo(Outcome.WAIT);
        assertThat(verdict.waitNanos()).isEqualTo(100 * MS);
    }

    @Test
    void givesMemcachedTheWholeTimeoutFromWhenTheOperationWasSent() {
        Progress sentLate = progress(false, start + 60 * MS, neverAnswered);

        assertThat(judge.judge(start, start + 100 * MS, sentLate).waitNanos()).isEqualTo(60 * MS);
        assertThat(judge.judge(start, start + 160 * MS, sentLate).outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void givesUpAsTheGatewaysDelayOnAnOperationNeverSent() {
        assertThat(judge.judge(start, start + 1000 * MS, progress(false, Progress.NOT_SENT, neverAnswered)).outcome())
            .isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void blamesAMemcachedSilentThroughHalfItsTimeoutOfRunningTimeAtTheLongestWait() {
        // A CPU so busy that the gateway ran only now and then: memcached had 80 ms and
        // answered nothing at all.
        pauses.record(start + 10 * MS, start + 930 * MS);

        assertThat(judge.judge(start, start + 1000 * MS, sentAtOnce).outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void excusesAMemcachedThatAnsweredOthersMeanwhileAtTheLongestWait() {
        pauses.record(start + 10 * MS, start + 930 * MS);
        Progress othersAnswered = progress(false, Progress.UNKNOWN, start + 900 * MS);

        assertThat(judge.judge(start, start + 1000 * MS, othersAnswered).outcome()).isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void letsAnOperationWaitWhileTheGatewayCatchesUpOnAnswersAfterAPause() {
        pauses.record(start + 10 * MS, start + 40 * MS);
        long now = start + 150 * MS;

        Verdict verdict = judge.judge(start, now, progress(false, Progress.UNKNOWN, now - MS));

        assertThat(verdict.outcome()).isEqualTo(Outcome.WAIT);
    }

    @Test
    void timesOutASlowMemcachedThatStillAnswersWhenTheGatewayNeverStalled() {
        long now = start + 150 * MS;

        assertThat(judge.judge(start, now, progress(false, Progress.UNKNOWN, now - MS)).outcome())
            .isEqualTo(Outcome.MEMCACHED_TIMEOUT);
    }

    @Test
    void blamesMemcachedWhenTheGatewayReadAllItSentSinceTheOldestOperationWasDue() {
        Verdict verdict = judge.judge(start, start + 100 * MS,
                progress(false, Progress.UNKNOWN, neverAnswered, Reading.LATE));

        assertThat(verdict.outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
        assertThat(verdict.why()).contains("read all that memcached sent");
    }

    @Test
    void blamesMemcachedWhenTheGatewaysReaderSitsWaitingForIt() {
        Verdict verdict = judge.judge(start, start + 100 * MS,
                progress(false, Progress.UNKNOWN, neverAnswered, Reading.SILENT));

        assertThat(verdict.outcome()).isEqualTo(Outcome.MEMCACHED_TIMEOUT);
        assertThat(verdict.why()).contains("reader waited");
    }

    @Test
    void saysWhyItBlamesMemcachedWhenTheConnectionCannotSay() {
        Verdict verdict = judge.judge(start, start + 100 * MS, sentAtOnce);

        assertThat(verdict.why()).contains("could not say");
        assertThat(judge.judge(start, start + 100 * MS, answered).why()).isEmpty();
    }

    @Test
    void waitsWhileTheGatewaysReaderIsBehindThoughTheGatewayNeverStalled() {
        Progress behind = progress(false, Progress.UNKNOWN, neverAnswered, Reading.BEHIND);

        Verdict verdict = judge.judge(start, start + 100 * MS, behind);

        assertThat(verdict.outcome()).isEqualTo(Outcome.WAIT);
        assertThat(verdict.waitNanos()).isEqualTo(DeadlineJudge.minimumStall(TIMEOUT).toNanos());
        assertThat(judge.judge(start, start + 1000 * MS, behind).outcome()).isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void waitsWhileNothingOnTheConnectionHasWaitedAWholeTimeout() {
        Progress queued = progress(false, Progress.UNKNOWN, neverAnswered, Reading.ON_TIME);

        assertThat(judge.judge(start, start + 150 * MS, queued).outcome()).isEqualTo(Outcome.WAIT);
        assertThat(judge.judge(start, start + 1000 * MS, queued).outcome()).isEqualTo(Outcome.GATEWAY_DELAY);
    }

    @Test
    void asksTheConnectionOnlyOnceMemcachedHadItsTimeout() {
        Verdict verdict = judge.judge(start, start + 100 * MS,
                progress(false, start + 60 * MS, neverAnswered, Reading.LATE));

        assertThat(verdict.outcome()).isEqualTo(Outcome.WAIT);
        assertThat(verdict.waitNanos()).isEqualTo(60 * MS);
    }

    private static Progress progress(boolean answered, long sentAt, long lastAnswerAt) {
        return progress(answered, sentAt, lastAnswerAt, Reading.UNKNOWN);
    }

    private static Progress progress(boolean answered, long sentAt, long lastAnswerAt, Reading reading) {
        return new Progress() {

            @Override
            public boolean answered() {
                return answered;
            }

            @Override
            public long sentAt() {
                return sentAt;
            }

            @Override
            public long lastAnswerAt() {
                return lastAnswerAt;
            }

            @Override
            public Reading reading(long now, DeadlineJudge.Stalls stalls) {
                return reading;
            }
        };
    }

    @AfterEach
    void stopDetector() {
        pauses.close();
    }

}
