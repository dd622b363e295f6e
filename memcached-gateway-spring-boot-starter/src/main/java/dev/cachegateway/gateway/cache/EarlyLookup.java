package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.hit.Lookup;

/**
 * A lookup made before routing, for the route filter that made it and the key it looked
 * up.
 *
 * @param startedAt when the lookup was sent, by {@link System#nanoTime()}
 */
record EarlyLookup(MemcachedCacheFilter filter, String key, Lookup lookup, long startedAt) {

    static final String ATTRIBUTE = EarlyLookup.class.getName();

}
