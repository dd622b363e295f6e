package dev.cachegateway.gateway.memcached;

import java.util.function.Function;
import java.util.function.Supplier;

import dev.cachegateway.gateway.memcached.operation.FutureBridge;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import dev.cachegateway.gateway.memcached.operation.OperationTimers;
import dev.cachegateway.gateway.memcached.pool.MemcachedPool;
import dev.cachegateway.gateway.memcached.pool.PoolClient;
import dev.cachegateway.gateway.memcached.pool.PoolNode;
import dev.cachegateway.gateway.memcached.protocol.RawItemTranscoder;
import net.spy.memcached.CASResponse;
import net.spy.memcached.CachedData;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.OperationFuture;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * How one operation reaches one server of the pool: on the connection it is started on,
 * watched by that connection's deadline, and, once {@linkplain #guarded guarded}, timed
 * and behind the server's circuit breaker.
 */
final class NodeOperations {

    private final MemcachedPool pool;

    private final FutureBridge futures;

    private final RawItemTranscoder transcoder = new RawItemTranscoder(CachedData.MAX_SIZE);

    // Off, every lookup is a get, as against a server without meta commands.
    private final boolean metaCommands;

    NodeOperations(MemcachedPool pool, FutureBridge futures, boolean metaCommands) {
        this.pool = pool;
        this.futures = futures;
        this.metaCommands = metaCommands;
    }

    /** {@code operation} on the server of {@code key}, chosen on subscription. */
    <T> Mono<T> onNodeOf(String key, Function<PoolNode, Mono<T>> operation) {
        return Mono.defer(() -> operation.apply(pool.nodeFor(key)));
    }

    /** A {@code get} of {@code key} on {@code node}. */
    Mono<CachedItem> get(PoolNode node, String key) {
        // The client is taken once, so that the deadline watches the connection the
        // operation goes out on.
        return Mono.defer(() -> {
            PoolClient client = pool.clientFor(node);
            return futures.get(client.reader(node.index()), () -> client.asyncGet(key, transcoder));
        });
    }

    /** A {@code set} on {@code node}. */
    Mono<Boolean> set(PoolNode node, String key, int ttlSeconds, CachedItem item) {
        return operation(node, client -> client.set(key, ttlSeconds, item, transcoder));
    }

    /** An {@code add} on {@code node}. */
    Mono<Boolean> add(PoolNode node, String key, int ttlSeconds, CachedItem item) {
        return operation(node, client -> client.add(key, ttlSeconds, item, transcoder));
    }

    /** A {@code gets} on {@code node}. */
    Mono<CasItem> gets(PoolNode node, String key) {
        return operation(node, client -> client.asyncGets(key, transcoder))
            .map(found -> new CasItem(found.getValue(), found.getCas()));
    }

    /** A {@code cas} on {@code node}. */
    Mono<Boolean> cas(PoolNode node, String key, long cas, int ttlSeconds, CachedItem item) {
        return operation(node, client -> client.asyncCAS(key, cas, ttlSeconds, item, transcoder))
            .map(CASResponse.OK::equals);
    }

    /** Any other operation of spymemcached's own on {@code node}. */
    <T> Mono<T> operation(PoolNode node, Function<MemcachedClient, OperationFuture<T>> start) {
        return Mono.defer(() -> {
            PoolClient client = pool.clientFor(node);
            return futures.operation(client.reader(node.index()), () -> start.apply(client));
        });
    }

    /** A meta command on {@code node}, through the client that speaks them there. */
    <T> Mono<T> meta(PoolNode node, PoolClient meta, Supplier<OperationFuture<T>> start) {
        return futures.operation(meta.reader(node.index()), start);
    }

    /**
     * The client that speaks meta commands to {@code node}; null where it has none or
     * they are off.
     */
    @Nullable PoolClient metaClientFor(PoolNode node) {
        return metaCommands ? pool.metaClientFor(node) : null;
    }

    /** {@code operation} timed by {@code timer}, inside {@code node}'s breaker. */
    static <T> Mono<T> guarded(PoolNode node, OperationTimers.Pair timer, Mono<T> operation) {
        // Timed inside the breaker: what the breaker turns away never reaches memcached
        // and is not a lookup.
        return BreakerGuard.guard(node.breaker(), Mono.defer(() -> {
            long start = System.nanoTime();
            // Not doOnEach, whose subscriber reads the whole chain's context as it is
            // made, on every lookup.
            return operation.doOnSuccess(value -> timer.record(true, System.nanoTime() - start)).doOnError(error -> {
                if (error instanceof GatewayDelayException) {
                    timer.delayed();
                }
                else {
                    timer.record(false, System.nanoTime() - start);
                }
            });
        }));
    }

}
