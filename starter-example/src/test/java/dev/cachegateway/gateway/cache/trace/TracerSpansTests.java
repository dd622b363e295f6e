package dev.cachegateway.gateway.cache.trace;

import static io.opentelemetry.api.common.AttributeKey.stringKey;
import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import io.micrometer.tracing.otel.bridge.OtelCurrentTraceContext;
import io.micrometer.tracing.otel.bridge.OtelTracer;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cache's spans made through the tracer: under the request's span, named and tagged
 * as the observation each was before would have had them, and only for a sampled request.
 */
class TracerSpansTests {

    private final InMemorySpanExporter exported = InMemorySpanExporter.create();

    private final SdkTracerProvider provider = SdkTracerProvider.builder()
        .addSpanProcessor(SimpleSpanProcessor.create(exported))
        .setSampler(Sampler.parentBased(Sampler.alwaysOn()))
        .build();

    private final OtelTracer tracer = new OtelTracer(provider.get("test"), new OtelCurrentTraceContext(), event -> {
    });

    private final TracerSpans spans = new TracerSpans(tracer);

    @AfterEach
    void close() {
        provider.close();
    }

    @Test
    void aSpanIsTheRequestsChildWithItsNodeKeyAndResult() {
        Span server = tracer.nextSpan().name("server").start();
        CacheSpan lookup = spans.start(requestOf(server), CacheSpans.LOOKUP, "127.0.0.1:11211", "/comments/1");
        lookup.result("hit");
        lookup.end();
        server.end();

        SpanData span = exportedNamed(CacheSpans.LOOKUP);
        assertThat(span.getParentSpanId()).isEqualTo(server.context().spanId());
        assertThat(span.getTraceId()).isEqualTo(server.context().traceId());
        assertThat(span.getAttributes().get(stringKey("memcached.node"))).isEqualTo("127.0.0.1:11211");
        assertThat(span.getAttributes().get(stringKey("memcached.key"))).isEqualTo("/comments/1");
        assertThat(span.getAttributes().get(stringKey("result"))).isEqualTo("hit");
        assertThat(span.hasEnded()).isTrue();
    }

    @Test
    void aStepThatSaysNothingIsTaggedNoneAndAFailedOneCarriesItsError() {
        Span server = tracer.nextSpan().name("server").start();
        CacheSpan store = spans.start(requestOf(server), CacheSpans.STORE, "127.0.0.1:11211", "/comments/2");
        store.error(new IllegalStateException("memcached went away"));
        store.end();

        SpanData span = exportedNamed(CacheSpans.STORE);
        assertThat(span.getAttributes().get(stringKey("result"))).isEqualTo("none");
        assertThat(span.getStatus().getStatusCode()).isEqualTo(StatusCode.ERROR);
        assertThat(span.getEvents()).anySatisfy(event -> assertThat(event.getName()).isEqualTo("exception"));
    }

    @Test
    void onlyARequestWhoseSpanIsSampledIsOne() {
        Span sampled = tracer.nextSpan().start();
        Span unsampled = tracer.spanBuilder()
            .setParent(tracer.traceContextBuilder()
                .traceId("4bf92f3577b34da6a3ce929d0e0e4736")
                .spanId("00f067aa0ba902b7")
                .sampled(false)
                .build())
            .start();

        assertThat(spans.sampled(requestOf(sampled))).isTrue();
        assertThat(spans.sampled(requestOf(unsampled))).isFalse();
        assertThat(spans.sampled(Observation.createNotStarted("untraced", ObservationRegistry.create()))).isFalse();
    }

    private static Observation requestOf(Span span) {
        ObservationRegistry registry = ObservationRegistry.create();
        // A registry without handlers makes the no-op observation, which keeps nothing.
        registry.observationConfig().observationHandler(context -> true);
        TracingContext tracing = new TracingContext();
        tracing.setSpan(span);
        Observation.Context context = new Observation.Context();
        context.put(TracingContext.class, tracing);
        return Observation.createNotStarted("request", () -> context, registry);
    }

    private SpanData exportedNamed(String name) {
        return exported.getFinishedSpanItems()
            .stream()
            .filter(span -> span.getName().equals(name))
            .findFirst()
            .orElseThrow();
    }

}
