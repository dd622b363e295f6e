/**
 * memcached as the gateway uses it: the reactive client API over spymemcached, its
 * settings and its limits.
 */
@NullMarked
package dev.cachegateway.gateway.memcached;

import org.jspecify.annotations.NullMarked;
