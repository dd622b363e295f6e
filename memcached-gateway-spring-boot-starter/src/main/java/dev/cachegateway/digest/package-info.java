/**
 * Digests the gateway computes for identity, never for security.
 */
@NullMarked
package dev.cachegateway.digest;

import org.jspecify.annotations.NullMarked;
