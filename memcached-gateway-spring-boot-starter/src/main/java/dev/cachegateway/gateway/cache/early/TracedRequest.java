package dev.cachegateway.gateway.cache.early;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.DefaultServerRequestObservationConvention;
import org.springframework.http.server.reactive.observation.ServerHttpObservationDocumentation;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.handler.ExceptionHandlingWebHandler;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * The server observation of one traced request, made with the registry and convention of
 * Spring's {@code HttpWebHandlerAdapter} and ended once, as that adapter ends its own: at
 * the answer's commit, with the error Spring's exception handling answered, if any, or as
 * aborted where the client left.
 */
final class TracedRequest extends AtomicBoolean {

    private static final ServerRequestObservationConvention DEFAULT_CONVENTION = new DefaultServerRequestObservationConvention();

    private final ServerHttpResponse response;

    private final ServerRequestObservationContext context;

    private final Observation observation;

    // The exchange's, once the request is handed on: where Spring's exception handling
    // notes an error it answered.
    private volatile Map<String, Object> attributes;

    /**
     * Starts the observation; for a request that arrived earlier with its server span
     * started, {@code arrival}: the tracing handler takes that span on, and the request
     * is timed from {@code arrival}'s sample, so that its timer counts what was done
     * before this observation, the lookup.
     */
    TracedRequest(ServerHttpRequest request, ServerHttpResponse response, ObservationRegistry registry,
            @Nullable ServerRequestObservationConvention convention, @Nullable Arrival arrival) {
        this.response = response;
        this.context = new ServerRequestObservationContext(request, response, new HashMap<>());
        this.attributes = context.getAttributes();
        if (arrival != null) {
            context.put(ServerSpans.ServerSpan.class, arrival.span());
        }
        this.observation = ServerHttpObservationDocumentation.HTTP_REACTIVE_SERVER_REQUESTS
            .observation(convention, DEFAULT_CONVENTION, () -> context, registry)
            .start();
        // Where Micrometer's meter handler keeps the sample it stops at the end.
        if (arrival != null && context.containsKey(Timer.Sample.class)) {
            context.put(Timer.Sample.class, arrival.sample());
        }
    }

    Observation observation() {
        return observation;
    }

    /**
     * The request goes on in {@code exchange}, whose handler mappings and head sampler
     * find this observation's context on it, as they would find the one Spring's adapter
     * makes.
     */
    void handedOn(ServerWebExchange exchange) {
        exchange.getAttributes().put(ServerRequestObservationContext.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE, context);
        attributes = exchange.getAttributes();
    }

    /**
     * An error that reached Spring's adapter, which answers it with a 500, or with
     * nothing where the client left.
     */
    void unresolved(Throwable error) {
        if (DisconnectedClientHelper.isClientDisconnectedException(error)) {
            context.setConnectionAborted(true);
        }
    }

    void complete() {
        if (compareAndSet(false, true)) {
            if (attributes.get(ExceptionHandlingWebHandler.HANDLED_WEB_EXCEPTION) instanceof Throwable handled) {
                observation.error(handled);
            }
            end();
        }
    }

    void fail(Throwable error) {
        if (compareAndSet(false, true)) {
            context.setError(error);
            end();
        }
    }

    void cancel() {
        if (compareAndSet(false, true)) {
            context.setConnectionAborted(true);
            observation.stop();
        }
    }

    private void end() {
        if (response.isCommitted()) {
            observation.stop();
            return;
        }
        response.beforeCommit(() -> {
            observation.stop();
            return Mono.empty();
        });
    }

}
