package dev.cachegateway.gateway.logging;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a failure that may repeat on every request (memcached down, say) once per quiet
 * period, with a count of what it left out, instead of once per request.
 */
public final class BurstLog {

    private final Logger logger;

    private final long quietNanos;

    private final LongSupplier nanoClock;

    private final AtomicLong nextReportAt;

    private final AtomicLong suppressed = new AtomicLong();

    // Long enough that an outage logs a handful of lines a minute, short enough that its
    // end is seen soon.
    private static final Duration QUIET_PERIOD = Duration.ofSeconds(10);

    /**
     * A burst log on the logger of {@code owner}, quiet for ten seconds after each
     * report.
     */
    public static BurstLog of(Class<?> owner) {
        return new BurstLog(LoggerFactory.getLogger(owner), QUIET_PERIOD);
    }

    public BurstLog(Logger logger, Duration quietPeriod) {
        this(logger, quietPeriod, System::nanoTime);
    }

    BurstLog(Logger logger, Duration quietPeriod, LongSupplier nanoClock) {
        this.logger = logger;
        this.quietNanos = quietPeriod.toNanos();
        this.nanoClock = nanoClock;
        this.nextReportAt = new AtomicLong(nanoClock.getAsLong());
    }

    public void warn(String what, Throwable failure) {
        if (due()) {
            logger.warn("{}: {} ({} more like it since the last report)", what, failure.toString(),
                    suppressed.getAndSet(0));
            logger.debug(what, failure);
        }
    }

    /** The same for what went wrong without an exception: {@code detail} says what. */
    public void warn(String what, String detail) {
        if (due()) {
            logger.warn("{}: {} ({} more like it since the last report)", what, detail, suppressed.getAndSet(0));
        }
    }

    // True once per quiet period; each call in between is counted as left out.
    private boolean due() {
        long now = nanoClock.getAsLong();
        long due = nextReportAt.get();
        if (now - due < 0 || !nextReportAt.compareAndSet(due, now + quietNanos)) {
            suppressed.incrementAndGet();
            return false;
        }
        return true;
    }

}
