/**
 * Spans of what the cache does for a request, started through the tracer under the
 * request's own: made only where the application traces and the request is sampled.
 */
@NullMarked
package dev.cachegateway.gateway.cache.trace;

import org.jspecify.annotations.NullMarked;
