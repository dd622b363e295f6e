package dev.cachegateway.gateway.memcached;

import static dev.cachegateway.gateway.memcached.NodeOperations.guarded;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.operation.FutureBridge;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines;
import dev.cachegateway.gateway.memcached.pool.MemcachedPool;
import dev.cachegateway.gateway.memcached.pool.PoolClient;
import dev.cachegateway.gateway.memcached.pool.PoolNode;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import reactor.core.publisher.Mono;

/**
 * A pool of memcached servers as {@link Mono}s. Every call returns at once, through the
 * {@link FutureBridge}, with a deadline. Each server has its own circuit breaker, so a
 * failing server fails its own keys at once and no others.
 */
public class ReactiveMemcached implements AutoCloseable {

    private final MemcachedPool pool;

    private final List<AutoCloseable> resources;

    private final NodeOperations nodes;

    private final CasWrites casWrites;

    ReactiveMemcached(MemcachedPool pool, Duration timeout, Duration maxGatewayDelay, boolean metaCommands,
            AutoCloseable refresher, CompletionThreads completions) {
        this.pool = pool;
        OperationDeadlines deadlines = new OperationDeadlines(timeout, maxGatewayDelay);
        this.nodes = new NodeOperations(pool, new FutureBridge(deadlines, completions), metaCommands);
        this.casWrites = new CasWrites(nodes);
        this.resources = List.of(refresher, pool, completions, deadlines);
    }

    /**
     * The item under {@code key}, or an empty Mono on a miss. Fails on a timeout, a lost
     * connection, a full operation queue, an open circuit breaker, a server without an
     * address, and a key memcached cannot take.
     */
    public Mono<CachedItem> get(String key) {
        return nodes.onNodeOf(key, node -> guarded(node, node.timers().get(), nodes.get(node, key)));
    }

    /**
     * The item under {@code key} with its remaining TTL, or an empty Mono on a miss;
     * never creates an item. Where the key's server has meta commands it is asked with
     * {@code mg}: with {@code recacheSeconds} above 0, one lookup wins the right to
     * refresh the item ({@link MetaItem#won()}) once its remaining TTL is below that, or
     * once it has been invalidated, and the others see
     * {@link MetaItem#winnerElsewhere()}. Elsewhere it is asked with {@code get}
     * ({@link MetaItem#withoutMeta}). Fails as {@link #get} does.
     */
    public Mono<MetaItem> lookup(String key, int recacheSeconds) {
        return nodes.onNodeOf(key, node -> {
            PoolClient meta = nodes.metaClientFor(node);
            return meta != null
                    ? guarded(node, node.timers().metaGet(),
                            nodes.meta(node, meta, () -> meta.metaGet(key, recacheSeconds)))
                    : guarded(node, node.timers().get(), nodes.get(node, key).map(MetaItem::withoutMeta));
        });
    }

    /**
     * Marks the item under {@code key} stale and keeps it for {@code keepSeconds}
     * (positive), where its server has meta commands: the next {@link #lookup} sees
     * {@link MetaItem#stale()} and one of them wins its refresh. Elsewhere the item is
     * deleted. True if it was there.
     */
    public Mono<Boolean> invalidate(String key, int keepSeconds) {
        if (keepSeconds <= 0) {
            return Mono.error(new IllegalArgumentException("keepSeconds must be positive: " + keepSeconds));
        }
        return nodes.onNodeOf(key, node -> {
            PoolClient meta = nodes.metaClientFor(node);
            return meta != null
                    ? guarded(node, node.timers().metaDelete(),
                            nodes.meta(node, meta, () -> meta.metaInvalidate(key, keepSeconds)))
                    : guarded(node, node.timers().delete(), nodes.operation(node, client -> client.delete(key)));
        });
    }

    /**
     * Stores {@code item} under {@code key} for {@code ttlSeconds} (0: no expiry); true
     * if memcached took it.
     */
    public Mono<Boolean> set(String key, int ttlSeconds, CachedItem item) {
        return nodes.onNodeOf(key, node -> guarded(node, node.timers().set(), nodes.set(node, key, ttlSeconds, item)));
    }

    /**
     * Stores {@code item} under {@code key} only if no item is there; true if memcached
     * took it.
     */
    public Mono<Boolean> add(String key, int ttlSeconds, CachedItem item) {
        return nodes.onNodeOf(key, node -> guarded(node, node.timers().add(), nodes.add(node, key, ttlSeconds, item)));
    }

    /**
     * The item under {@code key} with its CAS unique, for a {@link #cas}; an empty Mono
     * on a miss. Fails as {@link #get} does.
     */
    public Mono<CasItem> gets(String key) {
        return nodes.onNodeOf(key, node -> guarded(node, node.timers().gets(), nodes.gets(node, key)));
    }

    /**
     * Stores {@code item} under {@code key} only if the item there still has the CAS
     * unique {@code cas}; true if memcached took it, false if the key was written or
     * deleted since it was read.
     */
    public Mono<Boolean> cas(String key, long cas, int ttlSeconds, CachedItem item) {
        return nodes.onNodeOf(key,
                node -> guarded(node, node.timers().cas(), nodes.cas(node, key, cas, ttlSeconds, item)));
    }

    /**
     * Writes that keep the CAS unique of what they wrote, for changes that must not race.
     */
    public CasWrites casWrites() {
        return casWrites;
    }

    /**
     * Adds {@code by} to the decimal number under {@code key}, as memcached's
     * {@code incr} does (wrapping at 2^64); the new value, or an empty Mono when there is
     * no item under the key. Values are read as signed longs, so that callers keep theirs
     * below 2^63.
     */
    public Mono<Long> incr(String key, long by) {
        return nodes.onNodeOf(key, node -> guarded(node, node.timers().incr(),
                nodes.operation(node, client -> client.asyncIncr(key, by)).filter(value -> value >= 0)));
    }

    /** Deletes {@code key}; true if it was there. */
    public Mono<Boolean> delete(String key) {
        return nodes.onNodeOf(key,
                node -> guarded(node, node.timers().delete(), nodes.operation(node, client -> client.delete(key))));
    }

    /**
     * Deletes {@code key} without waiting for memcached's answer, for a delete whose
     * outcome changes nothing: no deadline, no timer and no completion to hand over.
     * Skipped while the server's breaker is open or the server has no address.
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
            // No address, a full queue or a key memcached refuses: the item is left to
            // expire.
        }
    }

    /** The server that holds {@code key}, as configured. Asks nothing of it. */
    public String serverOf(String key) {
        return pool.nodeFor(key).server().text();
    }

    /** The state of every server, in the configured order. Asks nothing of them. */
    public List<ServerState> servers() {
        return pool.nodes()
            .stream()
            .map(node -> new ServerState(node.server().text(), pool.addressOf(node), pool.isConnected(node),
                    node.breaker().getState(), pool.versionOf(node), nodes.metaClientFor(node) != null))
            .toList();
    }

    /**
     * A lookup on the server at {@code index} that goes to memcached whatever its breaker
     * says: for health.
     */
    public Mono<Void> probe(int index) {
        PoolNode node = pool.nodes().get(index);
        String probeKey = node.probeKey();
        return probeKey != null ? nodes.get(node, probeKey).then() : Mono.empty();
    }

    /**
     * How many of the configured servers have a live connection now; asks nothing of
     * them.
     */
    public int availableServers() {
        return (int) pool.nodes().stream().filter(pool::isConnected).count();
    }

    /** How many servers are configured. */
    public int configuredServers() {
        return pool.nodes().size();
    }

    /**
     * Stops following addresses, lets queued operations reach memcached for a while, then
     * closes.
     */
    @Override
    public void close() throws Exception {
        for (AutoCloseable resource : resources) {
            resource.close();
        }
    }

}
