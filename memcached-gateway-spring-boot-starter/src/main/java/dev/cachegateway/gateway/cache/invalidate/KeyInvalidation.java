package dev.cachegateway.gateway.cache.invalidate;

import java.util.Optional;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.StoresUnderWay;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

/**
 * Takes one key's item out of the cache so that it stays out, for writes and purges
 * alike: a plain {@code delete} would be undone by a fetch that asked the backend before
 * it and stores after it, on any replica. So this gateway stops sharing the leads under
 * way for the key and forgets its near-cache entry; a mark goes to memcached
 * ({@link WriteFences}), so that no such fetch stores its answer or shares it with a
 * request that comes later; a store that said "storing" before the mark is waited for
 * ({@link StoresUnderWay}); and then the key's lock and the item are deleted, the lock
 * first. A lock taken after the item is gone belongs to a fetch that asked the backend
 * after the write, which every replica must wait for; deleted last, it would send the
 * next miss on any replica to the backend too. Deleted first, it takes with it only locks
 * of fetches from before the mark, whose answers the mark keeps out, and a "stored" word
 * that would send the first miss after the delete to the backend without a lock; a
 * replica waiting on it then finds the old item, or none and claims the lock anew.
 */
public final class KeyInvalidation {

    // A mark or delete given up on because this gateway was paused past its longest wait
    // says nothing of memcached, and may have landed or not: it is sent once more, as
    // both may be.
    private static final Retry AFTER_OWN_PAUSE = Retry.max(1)
        .filter(GatewayDelayException.class::isInstance)
        .onRetryExhaustedThrow((spec, signal) -> signal.failure());

    private final ReactiveMemcached memcached;

    private final NearCache near;

    private final InFlightRequests inFlight;

    private final WriteFences fences;

    private final StoresUnderWay stores;

    public KeyInvalidation(ReactiveMemcached memcached, NearCache near, InFlightRequests inFlight, WriteFences fences,
            StoresUnderWay stores) {
        this.memcached = memcached;
        this.near = near;
        this.inFlight = inFlight;
        this.fences = fences;
        this.stores = stores;
    }

    /**
     * Invalidates {@code key}: true if memcached held an item under it. Fails if
     * memcached failed the mark or the delete; the delete is sent even after a failed
     * mark, since it alone keeps plain {@code get} readers from the old item.
     */
    public Mono<Boolean> invalidate(String key) {
        return Mono.defer(() -> {
            forgetHere(key);
            return markThenDelete(key);
        });
    }

    /**
     * Marks the item under {@code key} stale rather than deleting it, and keeps it
     * {@code keepSeconds} at most ({@link ReactiveMemcached#invalidate}; deleted where
     * memcached has no meta commands), so that lookups serve it inside its stale windows
     * while one replica refreshes it. Fenced as {@link #invalidate} is, so that no fetch
     * from before stores its answer over the refresh. True if memcached held an item;
     * fails if memcached failed the mark or the invalidation.
     */
    public Mono<Boolean> soften(String key, int keepSeconds) {
        return Mono.defer(() -> {
            forgetHere(key);
            // The lock goes too, first as in invalidate: one that says "stored" would
            // send every replica that finds the stale item to the backend without a
            // lock.
            return fences.mark(key)
                .retryWhen(AFTER_OWN_PAUSE)
                .then(stores.await(key))
                .then(deleteLock(key))
                .then(memcached.invalidate(key, keepSeconds).retryWhen(AFTER_OWN_PAUSE));
        });
    }

    // This gateway's own leads and near-cache entry; other replicas' near-caches keep
    // theirs for up to their TTL.
    private void forgetHere(String key) {
        inFlight.forget(key);
        near.invalidate(key);
    }

    private Mono<Boolean> markThenDelete(String key) {
        Mono<Optional<Throwable>> marked = fences.mark(key)
            .retryWhen(AFTER_OWN_PAUSE)
            .then(Mono.just(Optional.<Throwable>empty()))
            .onErrorResume(failure -> Mono.just(Optional.of(failure)));
        return marked.flatMap(failedMark -> stores.await(key)
            .then(deleteLock(key))
            .then(memcached.delete(key).retryWhen(AFTER_OWN_PAUSE))
            .flatMap(found -> failedMark.<Mono<Boolean>>map(Mono::error).orElseGet(() -> Mono.just(found))));
    }

    // A lock left behind only makes replicas wait for it, up to the lock timeout.
    private Mono<Boolean> deleteLock(String key) {
        return memcached.delete(LockKey.of(key)).onErrorReturn(false);
    }

}
