/**
 * The early hit path: hits of cached routes answered before the gateway routes them.
 */
@NullMarked
package dev.cachegateway.gateway.cache.early;

import org.jspecify.annotations.NullMarked;
