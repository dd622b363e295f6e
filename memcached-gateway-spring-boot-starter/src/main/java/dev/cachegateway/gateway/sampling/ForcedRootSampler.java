package dev.cachegateway.gateway.sampling;

import java.util.List;

import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.data.LinkData;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingResult;

/**
 * Boot's sampler, but a root span started for a request that {@link HeadSampler} drew
 * sampled is sampled: the draw was made at the same ratio, and a second one would sample
 * the square of it. Everything else (a parent's flag, roots outside a request) is the
 * delegate's to decide.
 */
final class ForcedRootSampler implements Sampler {

    // Set only on the thread that starts a drawn request's span, for as long as it does.
    private static final ThreadLocal<Boolean> DRAWN = new ThreadLocal<>();

    private final Sampler delegate;

    ForcedRootSampler(Sampler delegate) {
        this.delegate = delegate;
    }

    /** Runs {@code start}, which starts the span of a request drawn sampled. */
    static void whileDrawn(Runnable start) {
        DRAWN.set(Boolean.TRUE);
        try {
            start.run();
        }
        finally {
            DRAWN.remove();
        }
    }

    @Override
    public SamplingResult shouldSample(Context parentContext, String traceId, String name, SpanKind spanKind,
            Attributes attributes, List<LinkData> parentLinks) {
        if (DRAWN.get() != null && !Span.fromContext(parentContext).getSpanContext().isValid()) {
            return SamplingResult.recordAndSample();
        }
        return delegate.shouldSample(parentContext, traceId, name, spanKind, attributes, parentLinks);
    }

    @Override
    public String getDescription() {
        return "HeadSampled{" + delegate.getDescription() + "}";
    }

}
