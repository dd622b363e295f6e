package dev.cachegateway.gateway.sampling;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.early.TraceDecisions;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationView;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.headers.observation.GatewayContext;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;

/**
 * Decides a request's trace as its server observation is made, before a tracing handler
 * runs: parent-based where it came with a {@code traceparent} (its sampled flag decides),
 * left to the tracer where it came with another trace header the tracer reads (B3), and
 * otherwise drawn at Boot's {@code management.tracing.sampling.probability}. A request
 * decided before its observation was made (by the handler that answers fresh hits) keeps
 * that decision.
 */
final class HeadSampler implements TraceDecisions {

    private final double probability;

    private final List<String> otherTraceHeaders;

    // By request, which the server observation's context carries.
    private final Map<Object, HeadSampling> decidedAhead = new ConcurrentHashMap<>();

    HeadSampler(double probability, List<String> otherTraceHeaders) {
        this.probability = probability;
        this.otherTraceHeaders = otherTraceHeaders;
    }

    /**
     * The decision that holds for the observation of {@code context}: the request's, made
     * the first time its root is asked about and kept on it. An observation of no decided
     * request is traced as Boot traces it; that answer is not kept, as an observation may
     * learn its parent after it was made.
     */
    HeadSampling decisionFor(Observation.Context context) {
        HeadSampling known = context.get(HeadSampling.class);
        if (known != null) {
            return known;
        }
        HeadSampling decided = inherited(context);
        if (decided == null && context instanceof ReceiverContext<?> receiver) {
            decided = drawn(receiver);
        }
        if (decided == null) {
            return HeadSampling.TRACED;
        }
        if (!decided.traced()) {
            // Boot's meter handler reads the span of every observation as it stops, to
            // record the timer in its scope; an empty tracing context says there is none.
            context.computeIfAbsent(TracingContext.class, type -> new TracingContext());
        }
        context.put(HeadSampling.class, decided);
        return decided;
    }

    private static @Nullable HeadSampling inherited(Observation.Context context) {
        if (context instanceof GatewayContext gateway) {
            // The gateway's backend call is given its parent only after its handlers were
            // chosen; the request's own observation is on its exchange.
            ServerRequestObservationContext server = ServerRequestObservationContext
                .findCurrent(gateway.getServerWebExchange().getAttributes())
                .orElse(null);
            HeadSampling found = server != null ? server.get(HeadSampling.class) : null;
            return found != null ? found.forChild() : null;
        }
        for (ObservationView parent = context.getParentObservation(); parent != null; parent = parent.getContextView()
            .getParentObservation()) {
            HeadSampling found = parent.getContextView().get(HeadSampling.class);
            if (found != null) {
                return found.forChild();
            }
        }
        return null;
    }

    @Override
    public Decision decide(ServerHttpRequest request) {
        return drawn(request.getHeaders()::getFirst);
    }

    @Override
    public Mono<Void> keeping(ServerHttpRequest request, Decision decision, Supplier<Mono<Void>> handling) {
        // Kept before the handling starts, since the handling makes its observation
        // as it is called.
        decidedAhead.put(request, (HeadSampling) decision);
        try {
            return handling.get().doFinally(signal -> decidedAhead.remove(request));
        }
        catch (RuntimeException failed) {
            decidedAhead.remove(request);
            throw failed;
        }
    }

    // Boot's group of them is wrapped in SampledOnlyHandlers (HeadSampledTracingGroup).
    @Override
    public boolean gates(ObservationHandler<?> handler) {
        return handler instanceof TracingObservationHandler<?>;
    }

    private HeadSampling drawn(ReceiverContext<?> receiver) {
        Object carrier = receiver.getCarrier();
        HeadSampling ahead = carrier != null && !decidedAhead.isEmpty() ? decidedAhead.get(carrier) : null;
        return ahead != null ? ahead : drawn(name -> header(receiver, name));
    }

    private HeadSampling drawn(Function<String, @Nullable String> headers) {
        String traceparent = headers.apply(Traceparents.HEADER);
        if (traceparent != null) {
            Boolean sampled = Traceparents.sampled(traceparent);
            if (sampled == null || sampled) {
                return HeadSampling.TRACED;
            }
            return HeadSampling.unsampled(traceparent);
        }
        for (String name : otherTraceHeaders) {
            if (headers.apply(name) != null) {
                return HeadSampling.TRACED;
            }
        }
        return ThreadLocalRandom.current().nextDouble() < probability ? HeadSampling.DRAWN
                : HeadSampling.unsampled(null);
    }

    @SuppressWarnings("unchecked")
    private static @Nullable String header(ReceiverContext<?> receiver, String name) {
        ReceiverContext<Object> context = (ReceiverContext<Object>) receiver;
        Object carrier = context.getCarrier();
        return carrier != null ? context.getGetter().get(carrier, name) : null;
    }

}
