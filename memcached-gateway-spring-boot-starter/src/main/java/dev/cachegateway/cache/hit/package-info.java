/**
 * The hit path: a key looked up in the near-cache, then memcached, and what the lookup
 * found.
 */
@NullMarked
package dev.cachegateway.cache.hit;

import org.jspecify.annotations.NullMarked;
