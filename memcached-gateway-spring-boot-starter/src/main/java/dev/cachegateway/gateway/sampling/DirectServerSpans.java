package dev.cachegateway.gateway.sampling;

import dev.cachegateway.gateway.cache.early.ServerSpans;
import dev.cachegateway.gateway.cache.early.TraceDecisions;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import io.micrometer.tracing.propagation.Propagator;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.util.function.SingletonSupplier;

/**
 * Server spans started as Boot's receiving tracing handler starts a request's: from the
 * trace context its headers carry, read by the application's propagator, with a root that
 * {@link HeadSampler} drew sampled made sampled. Each gets a stand-in parent that carries
 * the span and the request's decision, where the cache's spans and
 * {@link HeadSampler#decisionFor} look for them.
 */
final class DirectServerSpans implements ServerSpans {

    // Named as the server observation is before its convention names it; the span is
    // named by the convention as it ends.
    private static final String NAME = "http.server.requests";

    // An observation made here has a context, where one made in a registry without
    // handlers would be the no-op one; the stand-ins are never started.
    private static final ObservationRegistry STAND_INS = ObservationRegistry.create();

    static {
        STAND_INS.observationConfig().observationHandler(new ObservationHandler<Observation.Context>() {
            @Override
            public boolean supportsContext(Observation.Context context) {
                return true;
            }
        });
    }

    private static final Propagator.Getter<ServerHttpRequest> HEADERS = (request, name) -> request.getHeaders()
        .getFirst(name);

    // Boot makes it after this configuration is read; asked of the bean factory once,
    // since each ask resolves the dependency anew.
    private final SingletonSupplier<Propagator> propagator;

    DirectServerSpans(ObjectProvider<Propagator> propagators) {
        this.propagator = SingletonSupplier.of(propagators::getObject);
    }

    @Override
    public ServerSpan start(ServerHttpRequest request, TraceDecisions.Decision decision) {
        HeadSampling sampling = (HeadSampling) decision;
        Span[] started = new Span[1];
        Propagator extracting = propagator.obtain();
        Runnable start = () -> started[0] = extracting.extract(request, HEADERS)
            .kind(Span.Kind.SERVER)
            .name(NAME)
            .start();
        if (sampling.drawn()) {
            ForcedRootSampler.whileDrawn(start);
        }
        else {
            start.run();
        }
        Span span = started[0];
        TracingContext tracing = new TracingContext();
        tracing.setSpan(span);
        Observation.Context context = new Observation.Context();
        context.put(TracingContext.class, tracing);
        context.put(HeadSampling.class, sampling);
        return new DirectServerSpan(span, Observation.createNotStarted(NAME, () -> context, STAND_INS));
    }

}
