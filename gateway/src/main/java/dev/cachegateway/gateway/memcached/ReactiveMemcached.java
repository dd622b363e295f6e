package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.function.Function;

import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines;
import dev.cachegateway.gateway.memcached.operation.OperationTimers;
import dev.cachegateway.gateway.memcached.pool.MemcachedPool;
import dev.cachegateway.gateway.memcached.pool.PoolNode;
import dev.cachegateway.gateway.memcached.protocol.RawItemTranscoder;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import io.netty.util.Timeout;
import net.spy.memcached.CachedData;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * A pool of memcached servers as {@link Mono}s. Every call returns at once: spymemcached's futures are bridged
 * through their completion listeners, never through a blocking {@code get()}, and a deadline cancels an
 * operation that takes too long, since spymemcached's own futures never time out unless somebody blocks on them.
 * Each server has its own circuit breaker, so a failing server fails its own keys at once and no others.
 */
public class ReactiveMemcached implements AutoCloseable {

    private final MemcachedPool pool;

    private final List<AutoCloseable> resources;

    private final RawItemTranscoder transcoder = new RawItemTranscoder(CachedData.MAX_SIZE);

    private final OperationDeadlines deadlines;

    private final CompletionThreads completions;

    ReactiveMemcached(MemcachedPool pool, Duration timeout, AutoCloseable refresher, CompletionThreads completions) {
        this.pool = pool;
        this.deadlines = new OperationDeadlines(timeout);
        this.completions = completions;
        this.resources = List.of(refresher, pool, completions, deadlines);
    }

    /**
     * The item under {@code key}, or an empty Mono on a miss. Fails on a timeout, a lost connection, a full
     * operation queue, an open circuit breaker, a server without an address, and a key memcached cannot take.
     */
    public Mono<CachedItem> get(String key) {
        return onNodeOf(key, node -> guarded(node, node.timers().get(), lookup(node, key)));
    }

    /** Stores {@code item} under {@code key} for {@code ttlSeconds} (0: no expiry); true if memcached took it. */
    public Mono<Boolean> set(String key, int ttlSeconds, CachedItem item) {
        return onNodeOf(key, node -> guarded(node, node.timers().set(),
                operation(node, client -> client.set(key, ttlSeconds, item, transcoder))));
    }

    /** Stores {@code item} under {@code key} only if no item is there; true if memcached took it. */
    public Mono<Boolean> add(String key, int ttlSeconds, CachedItem item) {
        return onNodeOf(key, node -> guarded(node, node.timers().add(),
                operation(node, client -> client.add(key, ttlSeconds, item, transcoder))));
    }

    /** Deletes {@code key}; true if it was there. */
    public Mono<Boolean> delete(String key) {
        return onNodeOf(key, node -> guarded(node, node.timers().delete(),
                operation(node, client -> client.delete(key))));
    }

    /**
     * Deletes {@code key} without waiting for memcached's answer, for a delete whose outcome changes nothing: no
     * deadline, no timer and no completion to hand over. Skipped while the server's breaker is open or the server
     * has no address.
     */
    public void deleteQuietly(String key) {
        PoolNode node = pool.nodeFor(key);
        CircuitBreaker.State state = node.breaker().getState();
        if (state == CircuitBreaker.State.OPEN || state == CircuitBreaker.State.FORCED_OPEN) {
            return;
        }
        try {
            pool.clientFor(node).delete(key);
        }
        catch (RuntimeException unavailable) {
            // No address, a full queue or a key memcached refuses: the item is left to expire.
        }
    }

    /** The state of every server, in the configured order. Asks nothing of them. */
    public List<ServerState> servers() {
        return pool.nodes().stream().map(node -> new ServerState(node.server().text(), pool.addressOf(node),
                pool.isConnected(node), node.breaker().getState())).toList();
    }

    /** A lookup on the server at {@code index} that goes to memcached whatever its breaker says: for health. */
    public Mono<Void> probe(int index) {
        PoolNode node = pool.nodes().get(index);
        return node.probeKey() != null ? lookup(node, node.probeKey()).then() : Mono.empty();
    }

    /** How many of the configured servers have a live connection now; asks nothing of them. */
    public int availableServers() {
        return (int) pool.nodes().stream().filter(pool::isConnected).count();
    }

    /** How many servers are configured. */
    public int configuredServers() {
        return pool.nodes().size();
    }

    private <T> Mono<T> onNodeOf(String key, Function<PoolNode, Mono<T>> operation) {
        return Mono.defer(() -> operation.apply(pool.nodeFor(key)));
    }

    private Mono<CachedItem> lookup(PoolNode node, String key) {
        return Mono.create(sink -> {
            Executor caller = completions.ofCaller();
            GetFuture<CachedItem> future = pool.clientFor(node).asyncGet(key, transcoder);
            watch(sink, caller, future, () -> future.cancel(false));
            future.addListener(done -> caller.execute(() -> complete(sink, done)));
        });
    }

    private Mono<Boolean> operation(PoolNode node, Function<MemcachedClient, OperationFuture<Boolean>> start) {
        return Mono.create(sink -> {
            Executor caller = completions.ofCaller();
            OperationFuture<Boolean> future = start.apply(pool.clientFor(node));
            watch(sink, caller, future, future::cancel);
            future.addListener(done -> caller.execute(() -> complete(sink, done)));
        });
    }

    // Fails the sink once the timeout passes; then, or when the subscriber cancels, an operation still under way is
    // cancelled, since spymemcached's futures never time out.
    private <T> void watch(MonoSink<T> sink, Executor caller, Future<?> future, Runnable cancel) {
        Timeout deadline = deadlines.arm(timeout -> caller.execute(() -> sink.error(timeout)));
        sink.onDispose(() -> {
            deadline.cancel();
            if (!future.isDone()) {
                cancel.run();
            }
        });
    }

    // Timed inside the breaker: what the breaker turns away never reaches memcached and is not a lookup.
    private static <T> Mono<T> guarded(PoolNode node, OperationTimers.Pair timer, Mono<T> operation) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            return operation.doOnEach(signal -> {
                if (signal.isOnComplete() || signal.isOnError()) {
                    timer.record(signal.isOnComplete(), System.nanoTime() - start);
                }
            });
        }).transformDeferred(CircuitBreakerOperator.of(node.breaker()));
    }

    // The listener runs once the future is done, so get() returns at once; it only unwraps the outcome.
    @SuppressWarnings("unchecked")
    private static <T> void complete(MonoSink<T> sink, Future<?> done) {
        if (done.isCancelled()) {
            // Only this class cancels, once the sink is done with: nobody is left to tell.
            return;
        }
        try {
            sink.success((T) done.get());
        }
        catch (ExecutionException ex) {
            sink.error(ex.getCause() != null ? ex.getCause() : ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            sink.error(ex);
        }
    }

    /** Stops following addresses, lets queued operations reach memcached for a while, then closes. */
    @Override
    public void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }
}
