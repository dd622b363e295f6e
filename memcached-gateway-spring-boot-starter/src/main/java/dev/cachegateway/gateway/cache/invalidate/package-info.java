/**
 * Invalidation on writes (RFC 9111 4.4): a successful unsafe request through a cached
 * route deletes the items of the resources it changed.
 */
@NullMarked
package dev.cachegateway.gateway.cache.invalidate;

import org.jspecify.annotations.NullMarked;
