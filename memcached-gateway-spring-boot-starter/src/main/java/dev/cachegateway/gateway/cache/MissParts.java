package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.trace.CacheSpans;

/**
 * What every route's misses share, since all of them share one memcached key space.
 *
 * @param inFlight the misses on their way to the backend in this gateway
 * @param replicas the locks that coalesce misses across replicas
 * @param fences the write marks that keep a fetch from before a write from storing over
 * it
 * @param near the near-cache, which a store taken back must leave too
 * @param tags the generations of the tags that answers are stored under
 * @param spans the spans of lookups, locks and stores, where the application traces
 */
record MissParts(InFlightRequests inFlight, ReplicaLocks replicas, WriteFences fences, NearCache near,
        TagGenerations tags, CacheSpans spans) {
}
