package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Notices when the whole gateway stops: a thread that sleeps a few milliseconds at a time
 * and notes how much longer than that it was away, as jHiccup does. A GC pause, a
 * safepoint or a CPU too busy to run it shows as oversleep, and whatever else the gateway
 * was doing was held up as long. Oversleeps shorter than the minimum are the ordinary
 * jitter of a busy machine and are not kept, so that they are never given back to an
 * operation's deadline.
 */
public final class PauseDetector implements DeadlineJudge.Stalls, AutoCloseable {

    private static final long INTERVAL_NANOS = Duration.ofMillis(2).toNanos();

    // Enough for the stalls of any one deadline; older ones are overwritten.
    private static final int KEPT = 64;

    private final long minimumNanos;

    private final long[] starts = new long[KEPT];

    private final long[] ends = new long[KEPT];

    private int next;

    private volatile long lastWake = System.nanoTime();

    // Long before anything the gateway does: no stall yet.
    private volatile long lastEnd = lastWake - Duration.ofDays(1).toNanos();

    private volatile boolean running = true;

    private final Thread thread;

    public PauseDetector(Duration minimumStall) {
        this.minimumNanos = minimumStall.toNanos();
        this.thread = new Thread(this::watch, "gateway-pause-detector");
        thread.setDaemon(true);
        thread.start();
    }

    private void watch() {
        while (running) {
            long before = System.nanoTime();
            LockSupport.parkNanos(INTERVAL_NANOS);
            long after = System.nanoTime();
            record(before + INTERVAL_NANOS, after);
            lastWake = after;
        }
    }

    /**
     * Notes that the gateway stalled from {@code start} to {@code end} (System.nanoTime),
     * if long enough to keep.
     */
    void record(long start, long end) {
        if (end - start >= minimumNanos) {
            keep(start, end);
        }
    }

    private synchronized void keep(long start, long end) {
        starts[next] = start;
        ends[next] = end;
        lastEnd = Math.max(lastEnd, end);
        next = (next + 1) % KEPT;
    }

    @Override
    public long stalledNanos(long from, long to) {
        long stalled = overlapOfRecorded(from, to);
        // A stall that has just ended, or is still going on, is not recorded until this
        // thread runs again; the deadline that it delayed can fire first.
        long overdue = lastWake + INTERVAL_NANOS;
        if (to - overdue >= minimumNanos) {
            stalled += overlap(overdue, to, from, to);
        }
        return stalled;
    }

    @Override
    public long lastStallEnd(long now) {
        return now - (lastWake + INTERVAL_NANOS) >= minimumNanos ? now : lastEnd;
    }

    private synchronized long overlapOfRecorded(long from, long to) {
        long stalled = 0;
        for (int i = 0; i < KEPT; i++) {
            if (ends[i] != starts[i]) {
                stalled += overlap(starts[i], ends[i], from, to);
            }
        }
        return stalled;
    }

    private static long overlap(long start, long end, long from, long to) {
        return Math.max(0, Math.min(end, to) - Math.max(start, from));
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }

}
