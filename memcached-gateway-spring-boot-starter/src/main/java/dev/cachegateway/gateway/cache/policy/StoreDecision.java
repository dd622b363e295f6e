package dev.cachegateway.gateway.cache.policy;

import org.jspecify.annotations.Nullable;

/**
 * Whether a backend answer goes into memcached, and if so for how long and with which
 * flags.
 *
 * @param skipped why it is not stored, or null if it is
 * @param ttlSeconds the item's time to live
 * @param flags the item's flags: 0, or the route's gzip flag for a gzip-encoded body
 */
public record StoreDecision(@Nullable Skip skipped, int ttlSeconds, int flags) {

    /** Why an answer is not stored; also the tag of the skipped-store metric. */
    public enum Skip {

        /** Not a GET: HEAD answers have no body to store. */
        METHOD,
        /** A status the route does not store (only 200 by default). */
        STATUS,
        /** It sets a cookie, which must never be shared. */
        SET_COOKIE,
        /** {@code Vary: *}, or a {@code Vary} header the route's key does not include. */
        VARY,
        /**
         * {@code Cache-Control} has {@code private}, {@code no-store} or
         * {@code no-cache}.
         */
        CACHE_CONTROL,
        /** Its freshness lifetime is zero or already over. */
        EXPIRED,
        /**
         * No {@code s-maxage}, {@code max-age} or {@code Expires}, on a route without a
         * default TTL.
         */
        NO_FRESHNESS,
        /** A content coding other than gzip, or gzip on a route without a gzip flag. */
        CONTENT_ENCODING,
        /** A Content-Type other than the one a hit on this route is served with. */
        CONTENT_TYPE,
        /** Larger than the maximum item size. */
        TOO_LARGE,
        /** A streamed answer, or one without a body. */
        NOT_A_BODY,
        /** The route only looks up ({@code store: false}), as nginx does. */
        STORE_OFF

    }

    static StoreDecision skip(Skip reason) {
        return new StoreDecision(reason, 0, 0);
    }

    static StoreDecision store(int ttlSeconds, int flags) {
        return new StoreDecision(null, ttlSeconds, flags);
    }

    /** Whether the answer is stored. */
    public boolean stores() {
        return skipped == null;
    }
}
