/**
 * What goes over the wire to memcached: items as raw bytes with their flags, readable by
 * every client. Operations of the gateway's own on spymemcached's connections
 * (memcached's meta commands) belong here, by wire dialect.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.protocol;

import org.jspecify.annotations.NullMarked;
