package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Stalls;
import dev.cachegateway.gateway.memcached.operation.Reader;
import dev.cachegateway.gateway.memcached.operation.Reading;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.compat.log.Logger;
import net.spy.memcached.compat.log.LoggerFactory;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationState;

/**
 * spymemcached's connection, whose one I/O thread is watched so that a deadline can tell
 * memcached's lateness from the gateway's own. Each pass of that thread reads every
 * readable socket until it is empty, and memcached answers in order on each socket: so
 * once a pass that began after the oldest waiting operation was due has ended, memcached
 * had not answered it in time. Until such a pass ends, the thread is either waiting for
 * memcached, spending next to no CPU, or busy with a backlog the gateway has not read
 * yet.
 */
final class WatchedConnection extends MemcachedConnection {

    // The window over which a waiting thread is told from a busy one: long enough for a
    // CPU-starved thread to get a time slice from the scheduler, so that starved is not
    // mistaken for waiting.
    private static final long IDLE_WINDOW_NANOS = Duration.ofMillis(40).toNanos();

    // A thread blocked in select spends well under this share of the window; one with
    // work to do, far more.
    private static final int IDLE_CPU_DIVISOR = 50;

    private static final long REREAD_NANOS = Duration.ofMillis(1).toNanos();

    private static final ThreadMXBean threads = ManagementFactory.getThreadMXBean();

    // spymemcached names its logger after the class: under its own name, its messages
    // keep the category that logging settings and searches know,
    // net.spy.memcached.MemcachedConnection.
    private static final Logger logger = LoggerFactory.getLogger(MemcachedConnection.class);

    // No initialisers on these: the superclass constructor starts the thread, which
    // writes these before this class's initialisers would run and overwrite them.
    private volatile long passBegan;

    private volatile long lastEndedPassBegan;

    private final long timeoutNanos;

    // The deadline thread's own sample of this thread's CPU time, taken during the pass
    // that began at sampledPass.
    private long sampledPass;

    private long sampledAt;

    private long sampledCpu = -1;

    WatchedConnection(int bufSize, ConnectionFactory factory, List<InetSocketAddress> addresses, Duration timeout)
            throws IOException {
        super(bufSize, factory, addresses, factory.getInitialObservers(), factory.getFailureMode(),
                factory.getOperationFactory());
        this.timeoutNanos = timeout.toNanos();
    }

    @Override
    protected Logger getLogger() {
        return logger;
    }

    @Override
    public void handleIO() throws IOException {
        long began = System.nanoTime();
        passBegan = began;
        super.handleIO();
        lastEndedPassBegan = began;
    }

    /**
     * What {@code node}'s socket says of memcached, for its operations not yet answered.
     * Asked by one deadline thread only, and at most once a millisecond: the deadlines
     * that fire together in a backlog share one reading.
     */
    Reader readerOf(MemcachedNode node) {
        return new Reader() {

            private long readAt;

            private Reading last = Reading.UNKNOWN;

            @Override
            public Reading reading(long now, Stalls stalls) {
                if (last == Reading.UNKNOWN || now - readAt >= REREAD_NANOS) {
                    last = WatchedConnection.this.reading(node, now, stalls);
                    readAt = now;
                }
                return last;
            }
        };
    }

    private Reading reading(MemcachedNode node, long now, Stalls stalls) {
        Operation oldest = node.getCurrentReadOp();
        if (!node.isActive()) {
            return Reading.UNKNOWN;
        }
        if (oldest == null) {
            return Reading.ON_TIME;
        }
        OperationState state = oldest.getState();
        if (state == OperationState.COMPLETE) {
            return Reading.BEHIND;
        }
        if (state == OperationState.READING) {
            long due = oldest.getWriteCompleteTimestamp() + timeoutNanos;
            if (now - due < 0) {
                return Reading.ON_TIME;
            }
            if (lastEndedPassBegan - due >= 0) {
                return Reading.LATE;
            }
        }
        // Still being written, or read by no pass since it was due.
        return waitingForMemcached(now, stalls) ? Reading.SILENT : Reading.BEHIND;
    }

    private boolean waitingForMemcached(long now, Stalls stalls) {
        long pass = passBegan;
        long cpu = threads.getThreadCpuTime(getId());
        if (cpu < 0) {
            return false;
        }
        if (sampledCpu < 0 || sampledPass != pass) {
            sampledPass = pass;
            sampledAt = now;
            sampledCpu = cpu;
            return false;
        }
        long window = now - sampledAt;
        return window >= IDLE_WINDOW_NANOS && (cpu - sampledCpu) * IDLE_CPU_DIVISOR < window
                && stalls.stalledNanos(sampledAt, now) == 0;
    }

}
