package dev.cachegateway.gateway.cache.miss;

import java.util.List;
import java.util.function.Consumer;

import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Drop;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Flux;

/**
 * Stores a fetched answer unless a write to its key came after the fetch asked the backend ({@link WriteFences}).
 * The fence is read before the store and again after it: a write that lands in between, while the store is on its
 * way, has its mark seen by the second read, and the items just stored are deleted again. The requests waiting for
 * the store are let go once it has ended, as without a fence: the second read only narrows that rare window.
 */
final class FencedStore {

    private final ItemFormat format;

    private final ResponseStore store;

    private final VariantStore variants;

    private final WriteFences fences;

    private final ReactiveMemcached memcached;

    private final NearCache near;

    private final CacheMetrics metrics;

    FencedStore(ItemFormat format, ResponseStore store, WriteFences fences, ReactiveMemcached memcached,
            NearCache near, CacheMetrics metrics) {
        this.format = format;
        this.store = store;
        this.variants = new VariantStore(memcached, store, format);
        this.fences = fences;
        this.memcached = memcached;
        this.near = near;
        this.metrics = metrics;
    }

    /**
     * Stores {@code captured} as {@code decision} says and tells {@code waiters} once the store has ended, or that a
     * write overtook the fetch. The waiters say "storing" first, where they hold the key's lock: a write that reads
     * that waits for the store to end before it deletes the item again ({@link StoresUnderWay}). {@code askedAt} is
     * when the backend was asked: the answer's age counts from then, not from when memcached took the store, which
     * the checks before it can stretch over seconds.
     */
    void store(String key, CapturedResponse captured, StoreDecision decision, Fence fence, Waiters waiters,
            long askedAt) {
        waiters.storing().then(fences.allowsStore(fence)).subscribe(allowed -> {
            if (!allowed) {
                metrics.dropped(Drop.OVERTAKEN);
                waiters.overtaken();
                return;
            }
            Consumer<List<String>> written = keys -> {
                waiters.stored();
                recheck(fence, keys);
            };
            if (Variants.varies(captured.headers()) && format instanceof HttpFormat) {
                variants.store(key, captured, decision.flags(), decision.ttlSeconds(), askedAt, written);
            }
            else {
                store.store(key, format.encode(captured, decision.flags(), askedAt),
                        decision.ttlSeconds(), () -> written.accept(List.of(key)));
            }
        });
    }

    private void recheck(Fence fence, List<String> keys) {
        fences.allowsStore(fence).flatMapMany(allowed -> {
            if (allowed) {
                return Flux.<Boolean>empty();
            }
            metrics.dropped(Drop.OVERTAKEN);
            keys.forEach(near::invalidate);
            return Flux.fromIterable(keys).flatMap(key -> memcached.delete(key).onErrorReturn(false));
        }).subscribe(deleted -> { }, failure -> { });
    }
}
