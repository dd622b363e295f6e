package dev.cachegateway.gateway.warmup;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Tells when the warm-up has done its work: when the gateway answers its own requests as
 * fast as it did five seconds before, and the JIT compiler has little left to compile. A
 * cold JVM speeds up for about a minute under load on two cores, in steps as C2 compiles
 * each path, so one flat second says nothing; two flat windows of five seconds, with the
 * compiler nearly idle in the last one, say the speed is what it will be.
 */
final class WarmUpProgress {

    private static final Logger log = LoggerFactory.getLogger(WarmUpProgress.class);

    static final int WINDOW_SECONDS = 5;

    /** Growth below this, window to window, counts as flat. */
    static final double FLAT = 1.05;

    /**
     * The share of the window's wall time the compiler threads may have spent compiling
     * for the JVM to count as compiled.
     */
    static final double COMPILER_IDLE = 0.10;

    // The answers of each second, and the compiler's total time at its end.
    private final List<Long> answers = new ArrayList<>();

    private final List<Long> compiledMillis = new ArrayList<>();

    private final LongSupplier compilerMillis;

    private boolean steady;

    WarmUpProgress(LongSupplier compilerMillis) {
        this.compilerMillis = compilerMillis;
        this.compiledMillis.add(compilerMillis.getAsLong());
    }

    /**
     * The compiler time of this JVM; where the JVM does not tell it, the compiler counts
     * as idle, and the rate alone decides.
     */
    static WarmUpProgress ofThisJvm() {
        CompilationMXBean compiler = ManagementFactory.getCompilationMXBean();
        if (compiler == null || !compiler.isCompilationTimeMonitoringSupported()) {
            return new WarmUpProgress(() -> 0);
        }
        return new WarmUpProgress(compiler::getTotalCompilationTime);
    }

    /**
     * Counts one more second of {@code answered} requests; true once the warm-up is
     * steady.
     */
    boolean steadyAfter(long answered) {
        answers.add(answered);
        compiledMillis.add(compilerMillis.getAsLong());
        int seconds = answers.size();
        if (seconds < 3 * WINDOW_SECONDS) {
            return false;
        }
        long last = window(seconds);
        long before = window(seconds - WINDOW_SECONDS);
        long earlier = window(seconds - 2 * WINDOW_SECONDS);
        long compiling = compiledMillis.get(seconds) - compiledMillis.get(seconds - WINDOW_SECONDS);
        steady = last <= before * FLAT && before <= earlier * FLAT
                && compiling <= COMPILER_IDLE * WINDOW_SECONDS * 1000;
        log.debug("Warm-up second {}: answers in the last three windows {}, {}, {}; {} ms compiling in the last",
                seconds, earlier, before, last, compiling);
        return steady;
    }

    /** Whether the last second counted found the warm-up steady. */
    boolean steady() {
        return steady;
    }

    // The answers of the window that ends with second {@code end}, counted from 1.
    private long window(int end) {
        long sum = 0;
        for (int second = end - WINDOW_SECONDS; second < end; second++) {
            sum += answers.get(second);
        }
        return sum;
    }

}
