/**
 * Spans of what the cache does for a request, as Micrometer observations under the
 * request's own: made only where the application traces.
 */
@NullMarked
package dev.cachegateway.gateway.cache.trace;

import org.jspecify.annotations.NullMarked;
