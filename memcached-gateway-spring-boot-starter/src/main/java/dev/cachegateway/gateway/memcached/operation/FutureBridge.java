package dev.cachegateway.gateway.memcached.operation;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Progress;
import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Stalls;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines.Deadline;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * spymemcached's futures as {@link Mono}s, the one bridge between them. A future is
 * followed through its completion listener, never a blocking {@code get()}, and a
 * deadline fails an operation that takes too long, since spymemcached's futures never
 * time out unless somebody blocks on them; it fails as memcached's timeout only if
 * memcached had the time ({@link OperationDeadlines}). The completion goes back to the
 * thread that started the operation ({@link CompletionThreads}). An operation that
 * spymemcached gave up on fails, at once; a get completes empty only on memcached's own
 * miss.
 */
public final class FutureBridge {

    private final OperationDeadlines deadlines;

    private final CompletionThreads completions;

    // When memcached last answered anything: a memcached that answers others is not the
    // one that is gone.
    private volatile long lastAnswerAt = System.nanoTime();

    public FutureBridge(OperationDeadlines deadlines, CompletionThreads completions) {
        this.deadlines = deadlines;
        this.completions = completions;
    }

    /**
     * A lookup, started on subscription, on the connection that {@code reader} watches.
     * Empty on a miss.
     */
    public <T> Mono<T> get(Reader reader, Supplier<GetFuture<T>> start) {
        return bridge(reader, () -> {
            GetFuture<T> future = start.get();
            return new Started<>(future, done -> future.addListener(completed -> done.run()));
        });
    }

    /**
     * Any other operation, started on subscription, on the connection that {@code reader}
     * watches.
     */
    public <T> Mono<T> operation(Reader reader, Supplier<OperationFuture<T>> start) {
        return bridge(reader, () -> {
            OperationFuture<T> future = start.get();
            return new Started<>(future, done -> future.addListener(completed -> done.run()));
        });
    }

    // GetFuture and OperationFuture share no listener type, so each says how to be told
    // it is done.
    private record Started<T>(Future<T> future, Consumer<Runnable> whenDone) {
    }

    private <T> Mono<T> bridge(Reader reader, Supplier<Started<T>> start) {
        return Mono.create(sink -> {
            Executor caller = completions.ofCaller();
            Started<T> started = start.get();
            Future<T> future = started.future();
            // The deadline, the completion and a cancelling subscriber race: the sink
            // keeps the first signal and drops the others, so an operation that the
            // subscriber cancelled fails unheard.
            Deadline deadline = deadlines.arm(new Progress() {

                // An answer that has arrived is on its way to the caller, however far
                // behind the caller is.
                @Override
                public boolean answered() {
                    return future.isDone() && !future.isCancelled();
                }

                @Override
                public long sentAt() {
                    return future instanceof SendTimed timed ? timed.sentAt() : Progress.UNKNOWN;
                }

                @Override
                public long lastAnswerAt() {
                    return lastAnswerAt;
                }

                @Override
                public Reading reading(long now, Stalls stalls) {
                    return reader.reading(now, stalls);
                }
            }, expired -> caller.execute(() -> sink.error(expired)));
            sink.onDispose(() -> {
                deadline.cancel();
                if (!future.isDone()) {
                    future.cancel(false);
                }
            });
            started.whenDone().accept(() -> {
                if (!future.isCancelled()) {
                    lastAnswerAt = System.nanoTime();
                }
                caller.execute(() -> complete(sink, future));
            });
        });
    }

    // Runs once the future is done, so get() returns at once; it only unwraps the
    // outcome. Whatever it meets ends the sink at once: its deadline, having seen the
    // operation answered, would end it only well past the timeout.
    private static <T> void complete(MonoSink<T> sink, Future<T> done) {
        if (done.isCancelled()) {
            // By spymemcached, which cancels what waits on a connection it lost or is
            // sent to a server that is down.
            sink.error(new FailedOperationException("cancelled: its connection was lost or its server is down"));
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
    // multi-get fails or is cancelled: with no value, and the get itself neither failed
    // nor cancelled. Only the status tells them apart. memcached's miss is NOT_FOUND, or
    // a success where the get shared a multi-get that found other keys (any multi-get,
    // over the binary protocol).
    private static @Nullable Exception failureOfEmpty(@Nullable OperationStatus status) {
        if (status != null && (status.isSuccess() || status.getStatusCode() == StatusCode.ERR_NOT_FOUND)) {
            return null;
        }
        return new FailedOperationException(status != null ? status.getMessage() : "no status");
    }

}
