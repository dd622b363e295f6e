/**
 * Stale answers (RFC 5861): a stale item answered while one gateway across all replicas
 * refreshes it in the background, or answered when the backend fails.
 */
@NullMarked
package dev.cachegateway.gateway.cache.stale;

import org.jspecify.annotations.NullMarked;
