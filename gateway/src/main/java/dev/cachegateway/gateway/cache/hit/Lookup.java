package dev.cachegateway.gateway.cache.hit;

import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.CachedItem;

/**
 * What a lookup found: an item this client can take (with its ETag when known), nothing, or a failure.
 *
 * @param item the item, on a hit
 * @param etag the item's ETag if it is known already, else null
 * @param failure why memcached could not say, else null
 */
public record Lookup(CachedItem item, String etag, Throwable failure) {

    public static final Lookup MISS = new Lookup(null, null, null);

    /** An item this client cannot take (gzip for a client without gzip); told apart from {@link #MISS} by identity. */
    public static final Lookup UNUSABLE = new Lookup(null, null, null);

    public static Lookup hit(CachedItem item, String etag) {
        return new Lookup(item, etag, null);
    }

    public static Lookup failed(Throwable failure) {
        return new Lookup(null, null, failure);
    }

    /** The answer to a hit. */
    public CapturedResponse answer(BodyFormat hits) {
        return etag != null ? hits.of(item, etag) : hits.of(item);
    }
}
