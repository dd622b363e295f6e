package dev.cachegateway.gateway.cache.early;

import io.micrometer.observation.ObservationHandler;

import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Whether a request is traced, decided as it arrives, where the application traces with
 * head sampling: {@link FastHitHandler} hands a traced request to Spring's handler, whose
 * observation makes its spans, and may answer any other below it, since that request's
 * observation would do no more than time it. The decision holds for the request's server
 * observation if it gets one: a second draw would trace a share of requests other than
 * the configured one.
 */
public interface TraceDecisions {

    /**
     * Decides whether {@code request} is traced, and keeps the decision for its server
     * observation until {@link #forget}.
     */
    boolean traced(ServerHttpRequest request);

    /** Lets go of the decision kept for {@code request}: it has been answered. */
    void forget(ServerHttpRequest request);

    /**
     * Whether {@code handler} sees only the observations of traced requests, where it
     * sees an observation at all.
     */
    boolean gates(ObservationHandler<?> handler);

}
