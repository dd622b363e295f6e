/**
 * memcached's meta commands ({@code mg}, {@code md}) as operations of the gateway's own
 * on spymemcached's text connections, and the rule that says which servers take them.
 * spymemcached stays the one client: these go out on its connections, in its queues,
 * alongside its own operations.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.protocol.meta;

import org.jspecify.annotations.NullMarked;
