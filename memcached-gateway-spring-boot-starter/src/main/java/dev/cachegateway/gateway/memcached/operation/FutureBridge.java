package dev.cachegateway.gateway.memcached.operation;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Progress;
import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Stalls;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines.Deadline;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import reactor.core.publisher.Mono;

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
            long startNanos = System.nanoTime();
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
                if (!future.isCancelled() && !FutureOutcome.timedOutUnsent(future)) {
                    lastAnswerAt = System.nanoTime();
                }
                caller.execute(() -> FutureOutcome.deliver(sink, future, startNanos));
            });
        });
    }

}
