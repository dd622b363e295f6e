package dev.cachegateway.gateway.cache.outcome;

/**
 * What the cache did for a request, sent to the client in the {@code X-Cache} header.
 * Each value says one thing about the lookup; what became of the backend's answer is in
 * {@code Cache-Status} and the stores meter.
 */
public enum XCache {

    /** Answered from memcached; the backend was not asked. */
    HIT,

    /**
     * Looked up and not in memcached; answered by the backend, whether or not the answer
     * is then stored.
     */
    MISS,

    /**
     * Not in memcached; answered with the backend answer that another request for the
     * same key was getting.
     */
    COALESCED,

    /**
     * Not looked up: a method other than GET or HEAD, a bypass header, or no key
     * memcached can take.
     */
    BYPASS,

    /**
     * The lookup failed: memcached failed or was too slow, or the gateway itself was
     * paused too long to wait for it (Cache-Status says which); answered by the backend,
     * not stored.
     */
    ERROR,

    /**
     * In memcached but stale, inside its stale-while-revalidate window: answered from
     * memcached at once, while one gateway across all replicas refreshes it in the
     * background (nginx's {@code UPDATING}).
     */
    UPDATING,

    /**
     * In memcached but stale; the backend failed, so answered with the stale item
     * (stale-if-error).
     */
    STALE,

    /**
     * In memcached but stale, past its stale-while-revalidate window; answered by the
     * backend (nginx's word).
     */
    EXPIRED,

    /**
     * In memcached but stale; the backend, asked with the item's validators, said it has
     * not changed (304), so answered with the item and its refreshed headers (nginx's
     * word).
     */
    REVALIDATED;

    /** The response header that carries the status. */
    public static final String HEADER = "X-Cache";

}
