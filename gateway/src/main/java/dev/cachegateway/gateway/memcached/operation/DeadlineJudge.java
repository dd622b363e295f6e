package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;

/**
 * Decides, when an operation's deadline passes, whose time ran out: memcached's, or the gateway's own. A deadline is
 * meant to catch a memcached that does not answer; a GC pause or a starved CPU in the gateway runs the same clock
 * down while memcached sits idle, and blaming memcached for it opens its breaker and sends every lookup to the
 * backend just when the gateway can least afford it. So the time the gateway itself lost is given back, and an
 * operation that still has none of its own left after {@code maxGatewayDelay} fails as the gateway's delay.
 */
public final class DeadlineJudge {

    /** What the gateway knows of its own stalls. */
    @FunctionalInterface
    public interface Stalls {

        /** How much of {@code from} to {@code to} (System.nanoTime) the gateway spent stalled. */
        long stalledNanos(long from, long to);
    }

    /** What to do about a deadline that passed. */
    public enum Outcome {
        /** memcached had the whole timeout and did not answer: its failure. */
        MEMCACHED_TIMEOUT,
        /** The gateway's own delays used the time, and the most it may wait has passed: not memcached's failure. */
        GATEWAY_DELAY,
        /** memcached has answered; the answer is on its way to the caller, so the deadline has nothing to do. */
        ANSWERED,
        /** The gateway's own delays used some of the time: wait {@link Verdict#waitNanos} more. */
        WAIT
    }

    /** The outcome, and for {@link Outcome#WAIT} how long to wait. */
    public record Verdict(Outcome outcome, long waitNanos) {
    }

    private final long timeoutNanos;

    private final long maxGatewayDelayNanos;

    private final Stalls stalls;

    public DeadlineJudge(Duration timeout, Duration maxGatewayDelay, Stalls stalls) {
        this.timeoutNanos = timeout.toNanos();
        this.maxGatewayDelayNanos = Math.max(timeout.toNanos(), maxGatewayDelay.toNanos());
        this.stalls = stalls;
    }

    /** The stall below which the gateway's delays are noise charged to memcached: a tenth of the timeout. */
    public static Duration minimumStall(Duration timeout) {
        return timeout.dividedBy(10);
    }

    public long timeoutNanos() {
        return timeoutNanos;
    }

    /**
     * The verdict on an operation started at {@code startNanos} whose deadline passes at {@code nowNanos}.
     * {@code answered} says memcached's answer has arrived, whether or not the caller has seen it yet.
     */
    public Verdict judge(long startNanos, long nowNanos, boolean answered) {
        if (answered) {
            return new Verdict(Outcome.ANSWERED, 0);
        }
        long elapsed = nowNanos - startNanos;
        // Only stalls seen up to now: a later one says nothing about whether memcached answered in time.
        long memcachedHad = elapsed - Math.min(elapsed, stalls.stalledNanos(startNanos, nowNanos));
        if (memcachedHad >= timeoutNanos) {
            return new Verdict(Outcome.MEMCACHED_TIMEOUT, 0);
        }
        long leftToWait = maxGatewayDelayNanos - elapsed;
        if (leftToWait <= 0) {
            return new Verdict(Outcome.GATEWAY_DELAY, 0);
        }
        return new Verdict(Outcome.WAIT, Math.min(timeoutNanos - memcachedHad, leftToWait));
    }
}
