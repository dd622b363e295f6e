package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.miss.MissCoalescing;
import dev.cachegateway.gateway.cache.stale.StaleResponses;

/**
 * A route's own parts.
 *
 * @param keys its key template
 * @param format how its items become responses
 * @param misses its misses, coalesced
 * @param stale its stale answers
 * @param refreshAhead the seconds of an item's life left at which memcached names one
 * lookup to refresh it; 0 never
 * @param settings its settings, for the filter's {@code toString()}
 * @param tags whether its answers are stored with the tags the backend names
 */
record CachedRoute(CacheKeyTemplate keys, ItemFormat format, MissCoalescing misses, StaleResponses stale,
        int refreshAhead, String settings, boolean tags) {
}
