package dev.cachegateway.gateway.cache.trace;

import io.micrometer.observation.Observation;

/**
 * Where the cache's spans come from: children of a request's span, found on the request's
 * observation. Apart from {@link CacheSpans}, which loads where Micrometer Tracing is
 * absent too.
 */
interface ChildSpans {

    /**
     * Whether {@code request}'s span is in a trace that is sampled: the cache's spans of
     * any other would be made to be dropped.
     */
    boolean sampled(Observation request);

    /**
     * A span named {@code name} under {@code request}'s, tagged with the memcached server
     * of its key and the key.
     */
    CacheSpan start(Observation request, String name, String node, String key);

}
