package dev.cachegateway.gateway.sampling;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.early.ServerSpans;
import io.micrometer.common.KeyValue;
import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;

/**
 * A request's server span started through the tracer, ended once: by the fast-hit handler
 * that answered the request, or by the server observation that took it on
 * ({@link SampledOnlyHandler}).
 */
final class DirectServerSpan extends AtomicBoolean implements ServerSpans.ServerSpan {

    private final Span span;

    private final Observation parent;

    DirectServerSpan(Span span, Observation parent) {
        this.span = span;
        this.parent = parent;
    }

    @Override
    public Observation parent() {
        return parent;
    }

    /**
     * The span goes on in {@code server}, the request's server observation, whose tracing
     * handler names, tags and ends it as it would the span it makes.
     */
    void takenOnBy(TracingContext server) {
        set(true);
        server.setSpan(span);
    }

    @Override
    public void end(Supplier<Observation.Context> ended) {
        if (!compareAndSet(false, true)) {
            return;
        }
        Observation.Context observed = ended.get();
        tag(observed.getLowCardinalityKeyValues());
        tag(observed.getHighCardinalityKeyValues());
        Throwable error = observed.getError();
        if (error != null) {
            span.error(error);
        }
        String name = observed.getContextualName();
        if (name != null) {
            span.name(name);
        }
        span.end();
    }

    // As Micrometer Tracing's handler tags a span from its observation, key value by key
    // value, a high-cardinality one after a low one of the same key; but without merging
    // the two into one sorted set first, which took a third of this span's start and
    // end (bench/README.md, "Tracing").
    private void tag(KeyValues keyValues) {
        for (KeyValue keyValue : keyValues) {
            if (keyValue.getKey().equalsIgnoreCase("ERROR")) {
                span.error(new RuntimeException(keyValue.getValue()));
            }
            else {
                span.tag(keyValue.getKey(), keyValue.getValue());
            }
        }
    }

}
