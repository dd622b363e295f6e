/**
 * Head sampling before the server's span: where the application traces with
 * OpenTelemetry, a request's trace is decided as it arrives, and a request that is not
 * sampled is observed by the meters alone, with no span, scope, baggage or log context
 * made for it.
 */
@NullMarked
package dev.cachegateway.gateway.sampling;

import org.jspecify.annotations.NullMarked;
