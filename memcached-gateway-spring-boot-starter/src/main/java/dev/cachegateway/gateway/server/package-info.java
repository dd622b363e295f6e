/**
 * The gateway's own HTTP server, before any route.
 */
@NullMarked
package dev.cachegateway.gateway.server;

import org.jspecify.annotations.NullMarked;
