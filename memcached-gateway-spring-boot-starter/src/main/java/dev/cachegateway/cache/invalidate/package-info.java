/**
 * Invalidation on writes (RFC 9111 4.4): a successful unsafe request through a cached
 * route deletes the items of the resources it changed.
 */
@NullMarked
package dev.cachegateway.cache.invalidate;

import org.jspecify.annotations.NullMarked;
