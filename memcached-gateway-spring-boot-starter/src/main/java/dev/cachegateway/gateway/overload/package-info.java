/**
 * Overload is shed at the door, never shifted onto the backend: a limit on the requests
 * the gateway takes at once, past which a request gets a fast 503 with
 * {@code Retry-After}, and a limit per route on concurrent backend calls.
 */
@NullMarked
package dev.cachegateway.gateway.overload;

import org.jspecify.annotations.NullMarked;
