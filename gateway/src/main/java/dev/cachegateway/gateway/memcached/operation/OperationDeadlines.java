package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.concurrent.DefaultThreadFactory;

/**
 * The operation timeout of every memcached call, on one timer wheel. Reactor's {@code timeout} schedules each
 * deadline on a scheduled thread pool, whose queue takes a lock and often wakes its thread twice per operation, to
 * arm and to cancel; a wheel arms with a lock-free enqueue and cancels lazily, and its thread wakes once a tick,
 * whatever the rate of operations. A deadline fires up to a tick late.
 */
public final class OperationDeadlines implements AutoCloseable {

    private static final long TICK_MILLIS = 5;

    private final HashedWheelTimer wheel;

    private final long timeoutNanos;

    private final String message;

    public OperationDeadlines(Duration timeout) {
        this.wheel = new HashedWheelTimer(new DefaultThreadFactory("memcached-deadlines", true), TICK_MILLIS,
                TimeUnit.MILLISECONDS, 512);
        this.timeoutNanos = timeout.toNanos();
        this.message = "memcached did not answer within " + timeout.toMillis() + " ms";
    }

    /** Runs {@code onTimeout} with a {@link TimeoutException} once the timeout passes, unless cancelled first. */
    public Timeout arm(java.util.function.Consumer<TimeoutException> onTimeout) {
        return wheel.newTimeout(timeout -> onTimeout.accept(new TimeoutException(message)), timeoutNanos,
                TimeUnit.NANOSECONDS);
    }

    @Override
    public void close() {
        wheel.stop();
    }
}
