package dev.cachegateway.gateway.cache.trace;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.Tracer;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import org.jspecify.annotations.Nullable;

/**
 * The cache's spans started and ended through the tracer: an observation for each, with
 * its context, key values and handler, cost a sampled hit more than the span did
 * (bench/README.md, "Tracing"). Each is named and tagged as Micrometer Tracing's handler
 * would name and tag the span of an observation of that name and key values.
 */
final class TracerSpans implements ChildSpans {

    private final Tracer tracer;

    TracerSpans(Tracer tracer) {
        this.tracer = tracer;
    }

    @Override
    public boolean sampled(Observation request) {
        Span span = spanOf(request);
        return span != null && Boolean.TRUE.equals(span.context().sampled());
    }

    @Override
    public CacheSpan start(Observation request, String name, String node, String key) {
        Span parent = spanOf(request);
        // Asked of a request whose span was found sampled: none, only where a caller
        // did not ask.
        if (parent == null) {
            return CacheSpan.NONE;
        }
        Span span = tracer.spanBuilder()
            .setParent(parent.context())
            .name(name)
            .tag("memcached.node", node)
            .tag("memcached.key", key)
            .start();
        return new Started(span);
    }

    private static @Nullable Span spanOf(Observation request) {
        TracingContext tracing = request.getContextView().get(TracingContext.class);
        return tracing != null ? tracing.getSpan() : null;
    }

    // The result is tagged as the span ends: a step says it once, or not at all.
    private static final class Started implements CacheSpan {

        private final Span span;

        private volatile String result = "none";

        Started(Span span) {
            this.span = span;
        }

        @Override
        public void result(String result) {
            this.result = result;
        }

        @Override
        public void error(Throwable error) {
            span.error(error);
        }

        @Override
        public void end() {
            span.tag("result", result);
            span.end();
        }

    }

}
