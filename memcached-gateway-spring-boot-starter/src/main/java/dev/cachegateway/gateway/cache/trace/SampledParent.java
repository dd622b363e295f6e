package dev.cachegateway.gateway.cache.trace;

import java.util.function.Predicate;

import io.micrometer.observation.Observation;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;

/**
 * Whether a request's observation is in a trace that is sampled: the cache's spans of any
 * other would be made to be dropped. Apart from {@link CacheSpans}, which loads where
 * Micrometer Tracing is absent too.
 */
final class SampledParent implements Predicate<Observation> {

    @Override
    public boolean test(Observation parent) {
        TracingContext tracing = parent.getContextView().get(TracingContext.class);
        Span span = tracing != null ? tracing.getSpan() : null;
        return span != null && Boolean.TRUE.equals(span.context().sampled());
    }

}
