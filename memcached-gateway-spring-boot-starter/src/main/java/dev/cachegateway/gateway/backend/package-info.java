/**
 * What the gateway does to every proxied request on its way to the backend and back,
 * cached route or not.
 */
@NullMarked
package dev.cachegateway.gateway.backend;

import org.jspecify.annotations.NullMarked;
