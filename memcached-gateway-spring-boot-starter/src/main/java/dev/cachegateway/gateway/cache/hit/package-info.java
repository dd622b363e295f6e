/**
 * The hit path: a key looked up in the near-cache, then memcached, and what the lookup
 * found.
 */
@NullMarked
package dev.cachegateway.gateway.cache.hit;

import org.jspecify.annotations.NullMarked;
