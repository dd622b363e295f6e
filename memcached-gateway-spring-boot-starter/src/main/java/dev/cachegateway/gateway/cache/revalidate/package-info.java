/**
 * Revalidation (RFC 9111 4.3): a stale whole answer with a validator goes to the backend
 * as a conditional request, and a 304 refreshes it without its body crossing the network
 * again.
 */
@NullMarked
package dev.cachegateway.gateway.cache.revalidate;

import org.jspecify.annotations.NullMarked;
