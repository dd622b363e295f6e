package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Drop;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.reactor.bulkhead.operator.BulkheadOperator;
import reactor.core.publisher.Mono;

/**
 * Writes captured answers to memcached in the background. Nobody waits for a store: a
 * failed one costs a later miss, never a request. When memcached is slow, stores beyond a
 * bound are dropped and counted rather than left to pile up in memory.
 */
public final class ResponseStore {

    private static final BurstLog failures = BurstLog.of(ResponseStore.class);

    private final ReactiveMemcached memcached;

    private final Bulkhead pending;

    private final CacheMetrics metrics;

    private final NearCache near;

    // From a store's first check for a write to its last (FencedStore): a gateway with
    // none is at rest, its items as they will stay.
    private final AtomicInteger underWay = new AtomicInteger();

    public ResponseStore(ReactiveMemcached memcached, int maxConcurrentStores, CacheMetrics metrics) {
        this(memcached, maxConcurrentStores, metrics, NearCache.off());
    }

    public ResponseStore(ReactiveMemcached memcached, int maxConcurrentStores, CacheMetrics metrics, NearCache near) {
        this.memcached = memcached;
        this.pending = Bulkhead.of("memcached-stores",
                BulkheadConfig.custom().maxConcurrentCalls(maxConcurrentStores).maxWaitDuration(Duration.ZERO).build());
        this.metrics = metrics;
        this.near = near;
    }

    /**
     * Counts a store as under way until the returned end runs, which does something the
     * first time only.
     */
    Runnable begin() {
        underWay.incrementAndGet();
        AtomicBoolean ended = new AtomicBoolean();
        return () -> {
            if (ended.compareAndSet(false, true)) {
                underWay.decrementAndGet();
            }
        };
    }

    /** How many answers are on their way into memcached now, checks included. */
    public int underWay() {
        return underWay.get();
    }

    /**
     * Stores {@code item} under {@code key} for {@code ttlSeconds}, and tells
     * {@code whenDone} whether memcached took it, once that is known. Every path ends:
     * each operation has a timeout, and a full bound fails at once.
     */
    public void store(String key, CachedItem item, int ttlSeconds, Consumer<Boolean> whenDone) {
        write(memcached.set(key, ttlSeconds, item), key, item, ttlSeconds, true).subscribe(whenDone);
    }

    /**
     * As {@link #store}, but only if memcached holds nothing under {@code key};
     * {@code whenDone} is told whether it took the item, and false if the add failed.
     */
    public void add(String key, CachedItem item, int ttlSeconds, Consumer<Boolean> whenDone) {
        write(memcached.add(key, ttlSeconds, item), key, item, ttlSeconds, false).subscribe(whenDone);
    }

    // Whether memcached took the item; a failure counts and reads as false, and so does
    // a refusal where it is one (a set's, not an add's).
    private Mono<Boolean> write(Mono<Boolean> write, String key, CachedItem item, int ttlSeconds,
            boolean refusalFails) {
        return write.transformDeferred(BulkheadOperator.of(pending)).doOnNext(taken -> {
            if (taken) {
                // Only what memcached took: the near-cache never holds an item that
                // memcached does not.
                near.stored(key, item, ttlSeconds - StaleFlags.decode(item.flags()).longest());
                metrics.stored();
            }
            else if (refusalFails) {
                metrics.dropped(Drop.FAILED);
            }
        }).onErrorResume(failure -> {
            failed(failure);
            return Mono.just(false);
        }).defaultIfEmpty(false);
    }

    private void failed(Throwable failure) {
        if (failure instanceof BulkheadFullException) {
            metrics.dropped(Drop.BUSY);
        }
        else if (MemcachedLimits.isCircuitOpen(failure)) {
            metrics.dropped(Drop.CIRCUIT_OPEN);
        }
        else {
            metrics.dropped(Drop.FAILED);
            failures.warn("memcached store failed, item not cached", failure);
        }
    }

}
