package dev.cachegateway.gateway.cache.hit;

import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.CachedItem;
import org.jspecify.annotations.Nullable;

/** What a lookup found: an item this client can take, nothing it can use, or a failure. */
public sealed interface Lookup {

    /** Nothing in memcached under the key. */
    Lookup MISS = Absent.MISS;

    /** An item this client cannot take: gzip for a client without gzip. */
    Lookup UNUSABLE = Absent.UNUSABLE;

    static Lookup hit(CachedItem item, @Nullable String etag, ItemAge age, boolean wonRefresh) {
        return new Hit(item, etag, age, wonRefresh);
    }

    static Lookup failed(Throwable failure) {
        return new Failed(failure);
    }

    /** No item this client can take; the two are different outcomes for the client and the meters. */
    enum Absent implements Lookup {
        MISS, UNUSABLE
    }

    /**
     * An item this client can take, fresh or stale.
     *
     * @param item the item
     * @param etag its ETag if it is known already, so that a near-cache hit does not hash the bytes again
     * @param age where it stands against its freshness
     * @param wonRefresh whether memcached chose this lookup, of all replicas', to refresh it early
     */
    record Hit(CachedItem item, @Nullable String etag, ItemAge age, boolean wonRefresh) implements Lookup {

        /** The response to this hit. */
        public CapturedResponse response(BodyFormat format) {
            return etag != null ? format.response(item, etag) : format.response(item);
        }
    }

    /**
     * memcached could not say.
     *
     * @param failure why: a timeout, an open circuit, or another failure
     */
    record Failed(Throwable failure) implements Lookup {
    }
}
