/**
 * The gateway's own HTTP server, before any route.
 */
@NullMarked
package dev.cachegateway.server;

import org.jspecify.annotations.NullMarked;
