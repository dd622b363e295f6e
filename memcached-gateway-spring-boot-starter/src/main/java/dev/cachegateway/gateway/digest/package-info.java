/**
 * Digests the gateway computes for identity, never for security.
 */
@NullMarked
package dev.cachegateway.gateway.digest;

import org.jspecify.annotations.NullMarked;
