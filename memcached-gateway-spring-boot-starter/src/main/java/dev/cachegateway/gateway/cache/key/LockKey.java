package dev.cachegateway.gateway.cache.key;

/**
 * The key of a page key's replica lock. A rendered key has every '%' escaped as %XX with
 * hex digits, so no page key ends like a lock key, and a lock is never served as a page.
 */
public final class LockKey {

    /** What a lock key adds to its page key. */
    public static final String SUFFIX = "%lock";

    private LockKey() {
    }

    /**
     * The lock key of {@code pageKey}; it may be too long for memcached where the page
     * key is near the limit.
     */
    public static String of(String pageKey) {
        return pageKey + SUFFIX;
    }

}
