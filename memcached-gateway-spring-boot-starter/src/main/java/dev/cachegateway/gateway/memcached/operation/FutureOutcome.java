package dev.cachegateway.gateway.memcached.operation;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;

import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.ops.TimedOutOperationStatus;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.MonoSink;

/**
 * What a done spymemcached future ended as, said to a sink: its value, memcached's miss,
 * or a failure that names who failed. Runs once the future is done, so get() returns at
 * once; it only unwraps the outcome.
 */
final class FutureOutcome {

    private FutureOutcome() {
    }

    /**
     * Ends {@code sink} with what {@code done}, started at {@code startNanos}, ended as.
     */
    static <T> void deliver(MonoSink<T> sink, Future<T> done, long startNanos) {
        if (done.isCancelled()) {
            // By spymemcached, which cancels what waits on a connection it lost or is
            // sent to a server that is down.
            sink.error(new FailedOperationException("cancelled: its connection was lost or its server is down"));
            return;
        }
        if (timedOutUnsent(done)) {
            sink.error(new GatewayDelayException((System.nanoTime() - startNanos) / 1_000_000));
            return;
        }
        try {
            T value = done.get();
            Exception failure = value == null && done instanceof GetFuture<T> get ? failureOfEmpty(get.getStatus())
                    : null;
            if (failure != null) {
                sink.error(failure);
            }
            else {
                sink.success(value);
            }
        }
        catch (ExecutionException ex) {
            sink.error(ex.getCause() != null ? ex.getCause() : ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            sink.error(ex);
        }
        catch (Throwable ex) {
            // A CancellationException, or whatever else a future's get() may throw
            // besides what it declares.
            sink.error(ex);
        }
    }

    // spymemcached ends a get that it merged into a multi-get as it ends a miss when the
    // multi-get fails or is cancelled: with no value, and the get itself
    // neither failed nor cancelled. Only the status tells them apart. memcached's miss is
    // NOT_FOUND, or a success where the get shared a multi-get that found other keys (any
    // multi-get, over the binary protocol).
    private static @Nullable Exception failureOfEmpty(@Nullable OperationStatus status) {
        if (status != null && (status.isSuccess() || status.getStatusCode() == StatusCode.ERR_NOT_FOUND)) {
            return null;
        }
        return new FailedOperationException(status != null ? status.getMessage() : "no status");
    }

    /**
     * Whether spymemcached gave up on the operation unwritten. It times out only an
     * operation that waited its whole operation timeout in the gateway's queue (its other
     * way, a blocking get, is never used here), or a multi-get that its gets were merged
     * into: either way one that memcached never saw, and, as the deadlines judge such a
     * wait, the gateway's delay. Its operation timeout is past the deadlines' longest
     * wait, so it comes first only when a pause of the whole gateway let both run out
     * together.
     */
    static boolean timedOutUnsent(Future<?> done) {
        try {
            OperationStatus status = done instanceof GetFuture<?> get ? get.getStatus()
                    : done instanceof OperationFuture<?> operation ? operation.getStatus() : null;
            return status instanceof TimedOutOperationStatus;
        }
        catch (RuntimeException unreadable) {
            // Its get() throws: deliver says what.
            return false;
        }
    }

}
