package dev.cachegateway.gateway.cache;

/**
 * What the cache did for a request, sent to the client in the {@code X-Cache} header.
 */
public enum CacheStatus {

    /** Answered from memcached; the backend was not asked. */
    HIT,

    /** Not in memcached; answered by the backend, and stored because HTTP allows it. */
    MISS,

    /** Not in memcached; answered by another request's backend call for the same key, made at the same time. */
    COALESCED,

    /**
     * Not looked up (a method other than GET or HEAD, a bypass header, a key memcached cannot take), or looked up
     * and missed but the backend's answer may not be stored.
     */
    BYPASS,

    /** memcached failed or was too slow; answered by the backend. */
    ERROR;

    /** The response header that carries the status. */
    public static final String HEADER = "X-Cache";
}
