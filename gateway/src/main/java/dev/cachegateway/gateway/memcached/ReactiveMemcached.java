package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.List;
import java.util.function.Function;

import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.operation.FutureBridge;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines;
import dev.cachegateway.gateway.memcached.operation.OperationTimers;
import dev.cachegateway.gateway.memcached.pool.MemcachedPool;
import dev.cachegateway.gateway.memcached.pool.PoolClient;
import dev.cachegateway.gateway.memcached.pool.PoolNode;
import dev.cachegateway.gateway.memcached.protocol.RawItemTranscoder;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import net.spy.memcached.CachedData;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.OperationFuture;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A pool of memcached servers as {@link Mono}s. Every call returns at once, through the {@link FutureBridge}, with a
 * deadline. Each server has its own circuit breaker, so a failing server fails its own keys at once and no others.
 */
public class ReactiveMemcached implements AutoCloseable {

    private final MemcachedPool pool;

    private final List<AutoCloseable> resources;

    private final RawItemTranscoder transcoder = new RawItemTranscoder(CachedData.MAX_SIZE);

    private final FutureBridge futures;

    // Off, every lookup is a get, as against a server without meta commands.
    private final boolean metaCommands;

    ReactiveMemcached(MemcachedPool pool, Duration timeout, Duration maxGatewayDelay, boolean metaCommands,
            AutoCloseable refresher, CompletionThreads completions) {
        this.pool = pool;
        this.metaCommands = metaCommands;
        OperationDeadlines deadlines = new OperationDeadlines(timeout, maxGatewayDelay);
        this.futures = new FutureBridge(deadlines, completions);
        this.resources = List.of(refresher, pool, completions, deadlines);
    }

    /**
     * The item under {@code key}, or an empty Mono on a miss. Fails on a timeout, a lost connection, a full
     * operation queue, an open circuit breaker, a server without an address, and a key memcached cannot take.
     */
    public Mono<CachedItem> get(String key) {
        return onNodeOf(key, node -> guarded(node, node.timers().get(), getFrom(node, key)));
    }

    /**
     * The item under {@code key} with its remaining TTL, or an empty Mono on a miss; never creates an item. Where
     * the key's server has meta commands it is asked with {@code mg}: with {@code recacheSeconds} above 0, one
     * lookup wins the right to refresh the item ({@link MetaItem#won()}) once its remaining TTL is below that, or
     * once it has been invalidated, and the others see {@link MetaItem#winnerElsewhere()}. Elsewhere it is asked
     * with {@code get} ({@link MetaItem#withoutMeta}). Fails as {@link #get} does.
     */
    public Mono<MetaItem> lookup(String key, int recacheSeconds) {
        return onNodeOf(key, node -> {
            PoolClient meta = metaClientFor(node);
            return meta != null
                    ? guarded(node, node.timers().metaGet(),
                            futures.operation(meta.reader(node.index()), () -> meta.metaGet(key, recacheSeconds)))
                    : guarded(node, node.timers().get(), getFrom(node, key).map(MetaItem::withoutMeta));
        });
    }

    /**
     * Marks the item under {@code key} stale and keeps it for {@code keepSeconds} (positive), where its server has
     * meta commands: the next {@link #lookup} sees {@link MetaItem#stale()} and one of them wins its refresh.
     * Elsewhere the item is deleted. True if it was there.
     */
    public Mono<Boolean> invalidate(String key, int keepSeconds) {
        if (keepSeconds <= 0) {
            return Mono.error(new IllegalArgumentException("keepSeconds must be positive: " + keepSeconds));
        }
        return onNodeOf(key, node -> {
            PoolClient meta = metaClientFor(node);
            return meta != null
                    ? guarded(node, node.timers().metaDelete(),
                            futures.operation(meta.reader(node.index()), () -> meta.metaInvalidate(key, keepSeconds)))
                    : guarded(node, node.timers().delete(), operation(node, client -> client.delete(key)));
        });
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
                pool.isConnected(node), node.breaker().getState(), pool.versionOf(node),
                metaClientFor(node) != null)).toList();
    }

    /** A lookup on the server at {@code index} that goes to memcached whatever its breaker says: for health. */
    public Mono<Void> probe(int index) {
        PoolNode node = pool.nodes().get(index);
        String probeKey = node.probeKey();
        return probeKey != null ? getFrom(node, probeKey).then() : Mono.empty();
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

    // The client is taken once, so that the deadline watches the connection the operation goes out on.
    private Mono<CachedItem> getFrom(PoolNode node, String key) {
        return Mono.defer(() -> {
            PoolClient client = pool.clientFor(node);
            return futures.get(client.reader(node.index()), () -> client.asyncGet(key, transcoder));
        });
    }

    private Mono<Boolean> operation(PoolNode node, Function<MemcachedClient, OperationFuture<Boolean>> start) {
        return Mono.defer(() -> {
            PoolClient client = pool.clientFor(node);
            return futures.operation(client.reader(node.index()), () -> start.apply(client));
        });
    }

    // Timed inside the breaker: what the breaker turns away never reaches memcached and is not a lookup.
    private static <T> Mono<T> guarded(PoolNode node, OperationTimers.Pair timer, Mono<T> operation) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            return operation.doOnEach(signal -> {
                if (signal.getThrowable() instanceof GatewayDelayException) {
                    timer.delayed();
                }
                else if (signal.isOnComplete() || signal.isOnError()) {
                    timer.record(signal.isOnComplete(), System.nanoTime() - start);
                }
            });
        }).transformDeferred(CircuitBreakerOperator.of(node.breaker()));
    }

    private @Nullable PoolClient metaClientFor(PoolNode node) {
        return metaCommands ? pool.metaClientFor(node) : null;
    }

    /** Stops following addresses, lets queued operations reach memcached for a while, then closes. */
    @Override
    public void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }
}
