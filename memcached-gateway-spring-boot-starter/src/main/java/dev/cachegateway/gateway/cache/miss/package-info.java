/**
 * The miss and store path: misses coalesced within the gateway and across replicas, the
 * backend's response captured on its way to the client and stored when HTTP allows.
 */
@NullMarked
package dev.cachegateway.gateway.cache.miss;

import org.jspecify.annotations.NullMarked;
