package dev.cachegateway.gateway.cache.early;

import java.util.function.Supplier;

import io.micrometer.observation.ObservationHandler;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * Whether a request is traced, decided as it arrives, where the application traces with
 * head sampling: {@link FastHitHandler} starts a traced request's server span itself
 * ({@link TracedHits}), and times any other with a timer alone, since that request's
 * observation would do no more than time it. The decision holds for the request's server
 * observation: a second draw would trace a share of requests other than the configured
 * one.
 */
public interface TraceDecisions {

    /**
     * Decides whether {@code request} is traced. Nothing is kept: a request answered
     * without a server observation needs nothing more.
     */
    Decision decide(ServerHttpRequest request);

    /**
     * Starts {@code handling}, which makes the request's server observation, with
     * {@code decision} kept for that observation until the handling ends.
     */
    Mono<Void> keeping(ServerHttpRequest request, Decision decision, Supplier<Mono<Void>> handling);

    /**
     * Whether {@code handler} sees only the observations of traced requests, where it
     * sees an observation at all.
     */
    boolean gates(ObservationHandler<?> handler);

    /** What was decided for one request. */
    interface Decision {

        /** Whether the request is traced. */
        boolean traced();

    }

}
