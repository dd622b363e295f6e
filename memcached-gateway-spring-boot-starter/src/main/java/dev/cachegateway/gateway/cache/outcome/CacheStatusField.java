package dev.cachegateway.gateway.cache.outcome;

import org.jspecify.annotations.Nullable;

/**
 * RFC 9211's {@code Cache-Status}: this cache's member of the list, an RFC 8941 item with
 * parameters.
 */
final class CacheStatusField {

    /** The response header. */
    static final String HEADER = "Cache-Status";

    /** This cache's name in Cache-Status: a product name, the same on every replica. */
    static final String CACHE_NAME = "memcached-gateway";

    // Every hit says the same; built once rather than on each.
    private static final String HIT_MEMBER = CACHE_NAME + "; hit";

    private CacheStatusField() {
    }

    /**
     * @param forward why the request went forward, or null if it was answered from the
     * cache
     * @param backendStatus the status the backend answered a forwarded request with,
     * where it is worth saying
     * @param ttl the seconds of freshness left, negative when stale, where it is worth
     * saying
     * @param collapsed whether the request waited for another's backend answer and got
     * it, if it waited
     * @param stored whether the backend's answer is being stored
     * @param detail a word on why, such as the reason an answer was not stored
     */
    static String member(@Nullable String forward, @Nullable Integer backendStatus, @Nullable Long ttl,
            @Nullable Boolean collapsed, boolean stored, @Nullable String detail) {
        if (forward == null && ttl == null) {
            return HIT_MEMBER;
        }
        StringBuilder member = new StringBuilder(64).append(CACHE_NAME);
        member.append(forward == null ? "; hit" : "; fwd=" + forward);
        if (backendStatus != null) {
            member.append("; fwd-status=").append(backendStatus);
        }
        if (ttl != null) {
            member.append("; ttl=").append(ttl);
        }
        if (collapsed != null) {
            member.append(collapsed ? "; collapsed" : "; collapsed=?0");
        }
        if (stored) {
            member.append("; stored");
        }
        if (detail != null) {
            member.append("; detail=").append(detail);
        }
        return member.toString();
    }

}
