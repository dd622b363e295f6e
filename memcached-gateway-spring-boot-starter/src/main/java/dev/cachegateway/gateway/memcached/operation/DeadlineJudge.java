package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;

/**
 * Decides, when an operation's deadline passes, whose time ran out: memcached's, or the
 * gateway's own. A deadline is meant to catch a memcached that does not answer; a GC
 * pause or a starved CPU in the gateway runs the same clock down while memcached sits
 * idle, and so does an operation's wait in the gateway's own queue before it is written
 * for memcached. Blaming memcached for either opens its breaker and sends every lookup to
 * the backend just when the gateway can least afford it. So the time the gateway itself
 * lost is given back, and an operation that still has none of its own left after
 * {@code maxGatewayDelay} fails as the gateway's delay. Once memcached seems to have had
 * its time, the operation's connection has the last word ({@link Reading}): an answer can
 * only be late by memcached's doing if the gateway has read everything memcached sent, or
 * sits waiting for more.
 */
public final class DeadlineJudge {

    /** What the gateway knows of its own stalls. */
    public interface Stalls {

        /**
         * How much of {@code from} to {@code to} (System.nanoTime) the gateway spent
         * stalled.
         */
        long stalledNanos(long from, long to);

        /**
         * When the gateway's latest stall ended, as seen at {@code now}: {@code now}
         * while one goes on.
         */
        long lastStallEnd(long now);

    }

    /** What the client knows of one operation. */
    public interface Progress {

        /**
         * When {@link #sentAt} cannot say: the operation is taken to have been sent as it
         * started.
         */
        long UNKNOWN = Long.MAX_VALUE;

        /** While the operation waits in the gateway's queue for memcached's socket. */
        long NOT_SENT = Long.MIN_VALUE;

        /**
         * Whether memcached's answer has arrived, whether or not the caller has seen it
         * yet.
         */
        boolean answered();

        /**
         * When the operation was written for memcached (System.nanoTime),
         * {@link #NOT_SENT} or {@link #UNKNOWN}.
         */
        long sentAt();

        /**
         * When memcached last answered any operation of this client (System.nanoTime).
         */
        long lastAnswerAt();

        /** What the operation's connection says of memcached at {@code now}. */
        Reading reading(long now, Stalls stalls);

    }

    /** What to do about a deadline that passed. */
    public enum Outcome {

        /** memcached had the whole timeout and did not answer: its failure. */
        MEMCACHED_TIMEOUT,
        /**
         * The gateway's own delays used the time, and the most it may wait has passed:
         * not memcached's failure.
         */
        GATEWAY_DELAY,
        /**
         * memcached has answered, and the answer is on its way to the caller: wait
         * {@link Verdict#waitNanos} more for it to arrive, after which an answer the
         * caller never saw fails as the gateway's delay.
         */
        ANSWERED,
        /**
         * The gateway's own delays used some of the time: wait {@link Verdict#waitNanos}
         * more.
         */
        WAIT

    }

    /**
     * The outcome, for {@link Outcome#WAIT} how long to wait, and for
     * {@link Outcome#MEMCACHED_TIMEOUT} what showed memcached to be late rather than the
     * gateway behind: the evidence an operator reads in the timeout's message.
     */
    public record Verdict(Outcome outcome, long waitNanos, String why) {

        Verdict(Outcome outcome, long waitNanos) {
            this(outcome, waitNanos, "");
        }

        private static Verdict memcachedTimeout(String why) {
            return new Verdict(Outcome.MEMCACHED_TIMEOUT, 0, why);
        }

    }

    private static final Verdict UNANSWERED_AFTER_READING = Verdict
        .memcachedTimeout("the gateway had read all that memcached sent since it was due");

    private static final Verdict SILENT_WHILE_WAITED_FOR = Verdict
        .memcachedTimeout("memcached sent nothing while the gateway's reader waited for it");

    private static final Verdict UNSURE = Verdict
        .memcachedTimeout("its connection could not say, and memcached was not being heard catching up");

    private static final Verdict SILENT_THROUGHOUT = Verdict
        .memcachedTimeout("memcached answered nothing through the longest wait");

    private final long timeoutNanos;

    private final long maxGatewayDelayNanos;

    private final long minimumStallNanos;

    private final Stalls stalls;

    public DeadlineJudge(Duration timeout, Duration maxGatewayDelay, Stalls stalls) {
        this.timeoutNanos = timeout.toNanos();
        this.maxGatewayDelayNanos = Math.max(timeout.toNanos(), maxGatewayDelay.toNanos());
        this.minimumStallNanos = minimumStall(timeout).toNanos();
        this.stalls = stalls;
    }

    /**
     * The stall below which the gateway's delays are noise charged to memcached: a tenth
     * of the timeout.
     */
    public static Duration minimumStall(Duration timeout) {
        return timeout.dividedBy(10);
    }

    public long timeoutNanos() {
        return timeoutNanos;
    }

    /**
     * The verdict on an operation started at {@code startNanos} whose deadline passes at
     * {@code nowNanos}.
     */
    public Verdict judge(long startNanos, long nowNanos, Progress progress) {
        long elapsed = nowNanos - startNanos;
        if (progress.answered()) {
            // However far behind the caller is, its answer reaches it within the longest
            // wait; one that has not by a timeout past that was lost on its way, and
            // nothing else would ever end the operation.
            long leftToWait = timeoutNanos + maxGatewayDelayNanos - elapsed;
            return leftToWait > 0 ? new Verdict(Outcome.ANSWERED, leftToWait) : new Verdict(Outcome.GATEWAY_DELAY, 0);
        }
        long sentAt = progress.sentAt();
        long memcachedHad = memcachedHad(startNanos, nowNanos, sentAt);
        if (memcachedHad >= timeoutNanos) {
            return switch (progress.reading(nowNanos, stalls)) {
                case LATE -> UNANSWERED_AFTER_READING;
                case SILENT -> SILENT_WHILE_WAITED_FOR;
                case ON_TIME, BEHIND -> gatewaysDelay(startNanos, nowNanos, progress, true, minimumStallNanos);
                case UNKNOWN -> catchingUp(nowNanos, elapsed, progress.lastAnswerAt())
                        ? new Verdict(Outcome.WAIT, minimumStallNanos) : UNSURE;
            };
        }
        return gatewaysDelay(startNanos, nowNanos, progress, false, timeoutNanos - memcachedHad);
    }

    // The time went on the gateway's side: wait up to the longest wait, looking again
    // after at most {@code next}. Then it is the gateway's delay, unless only the stalls,
    // not the connection, excused memcached.
    private Verdict gatewaysDelay(long startNanos, long nowNanos, Progress progress, boolean connectionExcused,
            long next) {
        long leftToWait = maxGatewayDelayNanos - (nowNanos - startNanos);
        if (leftToWait > 0) {
            return new Verdict(Outcome.WAIT, Math.min(next, leftToWait));
        }
        long sentAt = progress.sentAt();
        boolean memcachedFailed = !connectionExcused && silentThroughout(startNanos, sentAt,
                memcachedHad(startNanos, nowNanos, sentAt), progress.lastAnswerAt());
        return memcachedFailed ? SILENT_THROUGHOUT : new Verdict(Outcome.GATEWAY_DELAY, 0);
    }

    // After a pause the gateway has a backlog of memcached's answers to read, while
    // requests keep arriving: an operation whose answer waits in that backlog is late by
    // the gateway's doing. So for up to the longest wait after a stall, while memcached
    // is heard answering, an operation waits on. Without a stall, a slow memcached is
    // timed out as ever.
    private boolean catchingUp(long nowNanos, long elapsed, long lastAnswerAt) {
        long stallEnd = stalls.lastStallEnd(nowNanos);
        return elapsed < maxGatewayDelayNanos && nowNanos - stallEnd < maxGatewayDelayNanos
                && lastAnswerAt - stallEnd > 0 && nowNanos - lastAnswerAt < minimumStallNanos;
    }

    // A CPU so busy that the gateway ran only now and then looks like many stalls, and
    // would excuse a memcached that is gone. So at the longest wait, a memcached that has
    // answered nothing at all since it was asked, through at least half its timeout of
    // the gateway's running time, is judged to have failed after all.
    private boolean silentThroughout(long startNanos, long sentAt, long memcachedHad, long lastAnswerAt) {
        if (sentAt == Progress.NOT_SENT) {
            return false;
        }
        long sent = sentAt == Progress.UNKNOWN ? startNanos : Math.max(startNanos, sentAt);
        return lastAnswerAt - sent < 0 && memcachedHad >= timeoutNanos / 2;
    }

    // The time memcached has had: since the operation was sent, less the gateway's stalls
    // since. Time in the queue before it says nothing of memcached, which had not been
    // asked yet. Only stalls seen up to now count: a later one says nothing about whether
    // memcached answered in time.
    private long memcachedHad(long startNanos, long nowNanos, long sentAt) {
        if (sentAt == Progress.NOT_SENT) {
            return 0;
        }
        long sent = sentAt == Progress.UNKNOWN ? startNanos : Math.max(startNanos, sentAt);
        long since = Math.max(0, nowNanos - sent);
        return since - Math.min(since, stalls.stalledNanos(sent, nowNanos));
    }

}
