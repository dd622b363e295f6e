package dev.cachegateway.gateway.cache.hit;


import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.hit.NearCache.NearItem;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * Looks a key up: in the near-cache first, when it is on, then in memcached. Never fails: a memcached failure is a
 * {@link Lookup} too, so that the caller answers from the backend.
 */
public final class ItemLookup {

    private static final BurstLog failures = BurstLog.of(MemcachedCacheFilter.class);

    private final ReactiveMemcached memcached;

    private final NearCache near;

    public ItemLookup(ReactiveMemcached memcached, NearCache near) {
        this.memcached = memcached;
        this.near = near;
    }

    /**
     * Looks {@code key} up; {@code refreshAhead} seconds before the item's freshness ends (0: never), memcached hands
     * one lookup across all replicas the right to refresh it early.
     */
    public Mono<Lookup> lookUp(String key, HttpHeaders requestHeaders, BodyFormat format, int refreshAhead) {
        NearItem held = near.get(key);
        if (held != null) {
            return Mono.just(usable(held.item(), held.etag(), ItemAge.UNKNOWN, false, requestHeaders, format));
        }
        return memcached.lookup(key, refreshAhead)
                .map(found -> {
                    ItemAge age = ItemAge.of(found);
                    // Only a fresh item that nobody must refresh now is worth holding in this gateway.
                    String etag = near.enabled() && age.fresh() && !found.won()
                            ? near.read(key, found.item(), age).etag() : null;
                    return usable(found.item(), etag, age, found.won(), requestHeaders, format);
                })
                .defaultIfEmpty(Lookup.MISS)
                .onErrorResume(failure -> {
                    // An open breaker is logged once, when it opens.
                    if (!MemcachedLimits.isCircuitOpen(failure)) {
                        failures.warn("memcached lookup failed, answering from the backend", failure);
                    }
                    return Mono.just(Lookup.failed(failure));
                });
    }

    // A gzip item a client cannot decode is as good as none; the backend's answer to that client is not stored,
    // since it would replace the item that gzip clients are served.
    private static Lookup usable(CachedItem item, @Nullable String etag, ItemAge age, boolean won,
            HttpHeaders requestHeaders, BodyFormat format) {
        return format.canAnswer(requestHeaders, item) ? Lookup.hit(item, etag, age, won) : Lookup.UNUSABLE;
    }
}
