package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.tracing.Span;
import io.micrometer.tracing.handler.TracingObservationHandler.TracingContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A gateway that traces nothing of its own accord (sampling 0.0): a request is decided
 * before the server's span, and one that is not sampled gets no span at all, yet is timed
 * in {@code http.server.requests} as any other and sends its backend a
 * {@code traceparent} that says not sampled. A request that comes sampled is traced.
 */
@Testcontainers
@SpringBootTest(classes = ExampleGatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.tracing.sampling.probability=0.0", "management.tracing.export.enabled=true",
                "management.otlp.metrics.export.enabled=false" })
@Import(UnsampledTracingTests.Recorders.class)
class UnsampledTracingTests {

    static final InMemorySpanExporter spans = InMemorySpanExporter.create();

    // The span each request's server observation had as it stopped, by path; none there
    // is Optional.empty().
    static final Map<String, Optional<Span>> serverSpans = new ConcurrentHashMap<>();

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    static final CountingBackend backend = new CountingBackend();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry meters;

    @Autowired
    Sampler sampler;

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        registry.add("memcached.servers", () -> memcached.getHost() + ":" + memcached.getMappedPort(11211));
        registry.add("backend.uri", backend::uri);
    }

    @AfterAll
    static void stopBackend() {
        backend.close();
    }

    @Test
    void anUnsampledRequestMakesNoSpanAndSendsAnUnsampledTraceparent() throws Exception {
        int sent = backend.traceparents().size();
        assertThat(get("/yaml/unsampled/1", null).headers().firstValue("X-Cache")).hasValue("MISS");

        List<String> traceparents = backend.traceparents();
        assertThat(traceparents).hasSize(sent + 1);
        String traceparent = traceparents.get(sent);
        assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00");
        await().atMost(Duration.ofSeconds(5)).until(() -> serverSpans.containsKey("/yaml/unsampled/1"));
        // Not even a span that is dropped: no tracing handler saw the request.
        assertThat(serverSpans.get("/yaml/unsampled/1")).isEmpty();
        assertThat(spans.getFinishedSpanItems())
            .noneMatch(span -> span.getTraceId().equals(traceparent.substring(3, 35)));
    }

    @Test
    void unsampledAndSampledRequestsAreTimedAlike() throws Exception {
        Map<Meter.Id, Long> before = serverRequests();
        get("/yaml/timed/2", null);
        get("/yaml/timed/2", TestTraces.sampled(TestTraces.newTraceId()));

        // Both in one timer, with the same tags; the observation ends after the answer,
        // and another test's last one may end in between.
        await().atMost(Duration.ofSeconds(5)).untilAsserted(() -> {
            Map<Meter.Id, Long> grown = serverRequests().entrySet()
                .stream()
                .filter(timer -> timer.getValue() > before.getOrDefault(timer.getKey(), 0L))
                .collect(Collectors.toMap(Map.Entry::getKey,
                        timer -> timer.getValue() - before.getOrDefault(timer.getKey(), 0L)));
            assertThat(grown).hasSize(1);
            assertThat(grown.values().iterator().next()).isGreaterThanOrEqualTo(2L);
            assertThat(grown.keySet().iterator().next().getTag("status")).isEqualTo("200");
        });
    }

    @Test
    void aRequestThatComesSampledIsTraced() throws Exception {
        String trace = TestTraces.newTraceId();
        String parent = TestTraces.newSpanId();
        get("/yaml/sampled/3", "00-" + trace + "-" + parent + "-01");

        SpanData server = await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst(),
                    Optional::isPresent)
            .orElseThrow();
        assertThat(server.getParentSpanId()).isEqualTo(parent);
        assertThat(serverSpans.get("/yaml/sampled/3"))
            .hasValueSatisfying(span -> assertThat(span.context().sampled()).isTrue());
        await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream().anyMatch(span -> span.getName().equals("memcached.cache.lookup")));
        SpanData backendCall = await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream().filter(span -> span.getKind() == SpanKind.CLIENT).findFirst(),
                    Optional::isPresent)
            .orElseThrow();
        assertThat(backend.traceparents()).contains("00-" + trace + "-" + backendCall.getSpanId() + "-01");
    }

    @Test
    void theSamplerIsBootsWithTheRequestsDrawnHere() {
        assertThat(sampler.getDescription()).startsWith("HeadSampled{ParentBased{root:TraceIdRatioBased{0.000000}");
    }

    private Map<Meter.Id, Long> serverRequests() {
        return meters.find("http.server.requests")
            .timers()
            .stream()
            .collect(Collectors.toMap(Timer::getId, Timer::count));
    }

    private HttpResponse<String> get(String path, String traceparent) throws Exception {
        return http.send(TestTraces.get(port, path, traceparent), HttpResponse.BodyHandlers.ofString());
    }

    private static List<SpanData> spans(String trace) {
        return TestTraces.spans(spans, trace);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class Recorders {

        @Bean
        SpanProcessor inMemorySpans() {
            return SimpleSpanProcessor.create(spans);
        }

        // Beside the tracing handlers, in no group of Boot's: what each request's own
        // observation was given by them.
        @Bean
        ObservationHandler<ServerRequestObservationContext> serverSpanRecorder() {
            return new ObservationHandler<>() {
                @Override
                public void onStop(ServerRequestObservationContext context) {
                    TracingContext tracing = context.get(TracingContext.class);
                    serverSpans.put(context.getCarrier().getPath().value(),
                            Optional.ofNullable(tracing != null ? tracing.getSpan() : null));
                }

                @Override
                public boolean supportsContext(io.micrometer.observation.Observation.Context context) {
                    return context instanceof ServerRequestObservationContext;
                }
            };
        }

    }

}
