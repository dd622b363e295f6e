package dev.cachegateway.gateway.cache.early;

import java.util.function.Supplier;

import io.micrometer.observation.Observation;

import org.springframework.http.server.reactive.ServerHttpRequest;

/**
 * The server spans of traced requests, made through the tracer rather than by a server
 * observation, where the application traces with head sampling: the observation's
 * context, key values, handlers and meters cost a sampled fresh hit more than its two
 * spans did (bench/README.md, "Tracing"). A request that is not answered as a fresh hit
 * gets its server observation after all, and that observation takes the span on rather
 * than making a second one.
 */
public interface ServerSpans {

    /** Starts the server span of {@code request}, traced as {@code decision} says. */
    ServerSpan start(ServerHttpRequest request, TraceDecisions.Decision decision);

    /** One request's server span. */
    interface ServerSpan {

        /**
         * An observation, never started, that stands for the request's own as the parent
         * of the cache's spans, as the request's observation would.
         */
        Observation parent();

        /**
         * Ends the span, named, tagged and failed as {@code observed}, the context a
         * server observation would have had at its end, says; nothing, and nothing asked
         * of {@code observed}, where a server observation took the span on.
         */
        void end(Supplier<Observation.Context> observed);

    }

}
