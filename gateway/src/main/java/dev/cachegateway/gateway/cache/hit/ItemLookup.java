package dev.cachegateway.gateway.cache.hit;

import java.util.Optional;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat.HitAnswer;
import dev.cachegateway.gateway.cache.hit.NearCache.NearItem;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.MetaItem;
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
     * one lookup across all replicas the right to refresh it early. An answer that varies is looked up once more,
     * under the key of the variant this request needs.
     */
    public Mono<Lookup> lookUp(String key, HttpHeaders requestHeaders, ItemFormat format, int refreshAhead) {
        NearItem held = near.get(key);
        if (held != null) {
            MetaItem item = MetaItem.withoutMeta(held.item());
            return Mono.just(read(item, format.decode(held.item()), bodyEtag(format, held.etag()), requestHeaders,
                    format));
        }
        return memcached.lookup(key, refreshAhead)
                .flatMap(found -> {
                    Optional<CapturedResponse> stored = format.decode(found.item());
                    Optional<String> variant = stored.flatMap(answer -> format.otherVariant(key, answer,
                            requestHeaders));
                    if (variant.isPresent()) {
                        return memcached.lookup(variant.get(), 0)
                                .map(other -> read(other, format.decode(other.item()), null, requestHeaders, format));
                    }
                    // Only a fresh item that nobody must refresh now is worth holding in this gateway.
                    ItemAge age = ItemAge.of(found);
                    String etag = near.enabled() && age.fresh() && !found.won()
                            ? near.read(key, found.item(), age).etag() : null;
                    return Mono.just(read(found, stored, bodyEtag(format, etag), requestHeaders, format));
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

    // An item this client cannot take is as good as none: a gzip body for a client without gzip, or a variant it
    // did not ask for. The backend's answer to that client is not stored, since it would replace the item that the
    // others are served. An item that is not of the route's format is a miss, and the answer replaces it.
    private static Lookup read(MetaItem found, Optional<CapturedResponse> decoded, @Nullable String etag,
            HttpHeaders requestHeaders, ItemFormat format) {
        if (decoded.isEmpty()) {
            return Lookup.MISS;
        }
        CapturedResponse stored = decoded.get();
        if (!format.canAnswer(requestHeaders, stored)) {
            return Lookup.UNUSABLE;
        }
        HitAnswer hit = format.answer(stored, found.item().flags(), found.remainingTtlSeconds(), etag,
                System.currentTimeMillis());
        return Lookup.hit(hit.response(), stored, hit.age(), found.won());
    }

    // The near-cache's ETag is the digest of the item's bytes: the body's own only in the body format.
    private static @Nullable String bodyEtag(ItemFormat format, @Nullable String etag) {
        return format instanceof BodyFormat ? etag : null;
    }
}
