package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Progress;
import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Verdict;
import io.netty.util.HashedWheelTimer;
import io.netty.util.Timeout;
import io.netty.util.concurrent.DefaultThreadFactory;
import org.jspecify.annotations.Nullable;

/**
 * The operation timeout of every memcached call, on one timer wheel. Reactor's
 * {@code timeout} schedules each deadline on a scheduled thread pool, whose queue takes a
 * lock and often wakes its thread twice per operation, to arm and to cancel; a wheel arms
 * with a lock-free enqueue and cancels lazily, and its thread wakes once a tick, whatever
 * the rate of operations. A deadline fires up to a tick late. When it fires, the
 * {@link DeadlineJudge} says whether memcached or the gateway used the time; time the
 * gateway lost is waited again.
 */
public final class OperationDeadlines implements AutoCloseable {

    private static final long TICK_MILLIS = 5;

    private final HashedWheelTimer wheel;

    private final DeadlineJudge judge;

    private final String message;

    private final AutoCloseable stalls;

    public OperationDeadlines(Duration timeout, Duration maxGatewayDelay) {
        this(timeout, maxGatewayDelay, new PauseDetector(DeadlineJudge.minimumStall(timeout)));
    }

    private OperationDeadlines(Duration timeout, Duration maxGatewayDelay, PauseDetector pauses) {
        this.wheel = new HashedWheelTimer(new DefaultThreadFactory("memcached-deadlines", true), TICK_MILLIS,
                TimeUnit.MILLISECONDS, 512);
        this.judge = new DeadlineJudge(timeout, maxGatewayDelay, pauses);
        this.stalls = pauses;
        this.message = "memcached did not answer within " + timeout.toMillis() + " ms";
    }

    /**
     * Fails the operation through {@code onExpiry} once its deadline has passed on
     * memcached's time: with a {@link TimeoutException} when memcached had the whole
     * timeout, with a {@link GatewayDelayException} when the gateway's own delays kept it
     * waiting past the longest wait allowed. Once memcached has answered, only as the
     * gateway's delay, and only if the answer has not reached the caller a timeout past
     * the longest wait: the one bound left on an operation whose completion is lost.
     */
    public Deadline arm(Progress progress, Consumer<Exception> onExpiry) {
        Deadline deadline = new Deadline(System.nanoTime(), progress, onExpiry);
        deadline.schedule(judge.timeoutNanos());
        return deadline;
    }

    /**
     * One operation's deadline, re-armed as often as the gateway's delays give time back.
     */
    public final class Deadline {

        private final long start;

        private final Progress progress;

        private final Consumer<Exception> onExpiry;

        private volatile @Nullable Timeout timeout;

        private volatile boolean cancelled;

        private Deadline(long start, Progress progress, Consumer<Exception> onExpiry) {
            this.start = start;
            this.progress = progress;
            this.onExpiry = onExpiry;
        }

        private void schedule(long nanos) {
            timeout = wheel.newTimeout(fired -> expire(), nanos, TimeUnit.NANOSECONDS);
            // A cancel that ran between the check and the schedule would miss this
            // timeout.
            if (cancelled) {
                cancel();
            }
        }

        private void expire() {
            if (cancelled) {
                return;
            }
            long now = System.nanoTime();
            Verdict verdict;
            try {
                verdict = judge.judge(start, now, progress);
            }
            catch (RuntimeException unjudged) {
                // The wheel drops a task that throws, and the operation would wait
                // forever: a plain timeout, then.
                onExpiry.accept((TimeoutException) new TimeoutException(message).initCause(unjudged));
                return;
            }
            switch (verdict.outcome()) {
                case MEMCACHED_TIMEOUT -> onExpiry.accept(new TimeoutException(message + ": " + verdict.why()));
                case GATEWAY_DELAY -> onExpiry.accept(new GatewayDelayException((now - start) / 1_000_000));
                case WAIT, ANSWERED -> schedule(verdict.waitNanos());
            }
        }

        /** Stops the deadline: the operation ended first. */
        public void cancel() {
            cancelled = true;
            Timeout armed = timeout;
            if (armed != null) {
                armed.cancel();
            }
        }

    }

    @Override
    public void close() throws Exception {
        wheel.stop();
        stalls.close();
    }

}
