package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.cachegateway.gateway.cache.early.EarlyHitFilter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
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
import org.springframework.core.annotation.Order;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * A gateway that traces with the starter's head sampling and answers fresh hits below
 * Spring's WebHandler: each request is decided first, a traced one gets its server
 * observation before its lookup and so its spans (its lookup among them), and every fresh
 * hit, traced or not, is answered below Spring's handler; what is not goes on to it, with
 * the traced request's observation, never a second one. The application's WebFilter tells
 * which way each one went. Nothing is drawn for tracing here (sampling 0.0): a request is
 * traced when it comes sampled.
 */
@Testcontainers
@SpringBootTest(classes = ExampleGatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "memcached.cache.hits-skip-web-filters=true", "management.tracing.sampling.probability=0.0",
                "management.tracing.export.enabled=true", "management.otlp.metrics.export.enabled=false" })
@Import(FastHitsWithHeadSamplingTests.Recorders.class)
class FastHitsWithHeadSamplingTests {

    static final InMemorySpanExporter spans = InMemorySpanExporter.create();

    // The requests the application's WebFilter saw, by path.
    static final Map<String, AtomicInteger> filtered = new ConcurrentHashMap<>();

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    static final CountingBackend backend = new CountingBackend();

    // The requests this class sent, each of which is timed once.
    static final AtomicLong sent = new AtomicLong();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    HttpHandler httpHandler;

    @Autowired
    MeterRegistry meters;

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
    void answersAHitThatIsNotTracedBelowSpringsHandler() throws Exception {
        assertThat(httpHandler).isNotInstanceOf(HttpWebHandlerAdapter.class);
        int seen = stored("/yaml/untraced/1");
        long timed = serverRequests();

        assertThat(get("/yaml/untraced/1", null).headers().firstValue("X-Cache")).hasValue("HIT");
        String unsampled = "00-" + TestTraces.newTraceId() + "-" + TestTraces.newSpanId() + "-00";
        assertThat(get("/yaml/untraced/1", unsampled).headers().firstValue("X-Cache")).hasValue("HIT");

        assertThat(filtered.get("/yaml/untraced/1")).hasValue(seen);
        // Timed as the answer ends, which may be after the client has it.
        await().atMost(Duration.ofSeconds(5)).until(() -> serverRequests() >= timed + 2);
        assertThat(spans(unsampled.substring(3, 35))).isEmpty();
    }

    @Test
    void tracesAHitThatComesSampledBelowSpringsHandler() throws Exception {
        int seen = stored("/yaml/traced/2");
        String trace = TestTraces.newTraceId();
        String parent = TestTraces.newSpanId();

        assertThat(get("/yaml/traced/2", "00-" + trace + "-" + parent + "-01").headers().firstValue("X-Cache"))
            .hasValue("HIT");

        assertThat(filtered.get("/yaml/traced/2")).hasValue(seen);
        SpanData server = serverSpan(trace);
        assertThat(server.getParentSpanId()).isEqualTo(parent);
        assertThat(server.getName()).isEqualTo("http get");
        // Started before the lookup, so that the lookup is its child.
        await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream()
                .anyMatch(span -> span.getName().equals("memcached.cache.lookup")
                        && span.getParentSpanId().equals(server.getSpanId())));
        // The observation times it, in place of the timer of an untraced hit.
        assertTimedOnceEach();
    }

    @Test
    void givesASampledHitsServerSpanWhatSpringsObservationGivesASampledMiss() throws Exception {
        String missed = TestTraces.newTraceId();
        assertThat(get("/yaml/traced-like/5", TestTraces.sampled(missed)).headers().firstValue("X-Cache"))
            .hasValue("MISS");
        stored("/yaml/traced-like/5");
        String hit = TestTraces.newTraceId();
        assertThat(get("/yaml/traced-like/5", TestTraces.sampled(hit)).headers().firstValue("X-Cache")).hasValue("HIT");

        SpanData answered = serverSpan(hit);
        SpanData observed = serverSpan(missed);
        assertThat(answered.getName()).isEqualTo(observed.getName());
        assertThat(answered.getAttributes().asMap()).isEqualTo(observed.getAttributes().asMap());
        assertThat(answered.getStatus()).isEqualTo(observed.getStatus());
        assertTimedOnceEach();
    }

    @Test
    void aMissThatComesSampledKeepsItsOneServerSpanThroughSpringsHandler() throws Exception {
        String trace = TestTraces.newTraceId();

        assertThat(get("/yaml/traced-miss/4", TestTraces.sampled(trace)).headers().firstValue("X-Cache"))
            .hasValue("MISS");

        assertThat(filtered.get("/yaml/traced-miss/4")).hasValue(1);
        await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream().anyMatch(span -> span.getName().equals("memcached.cache.store")));
        SpanData server = serverSpan(trace);
        assertThat(spans(trace)).filteredOn(span -> span.getKind() == SpanKind.SERVER).hasSize(1);
        assertThat(spans(trace)).filteredOn(span -> span.getKind() != SpanKind.SERVER)
            .extracting(SpanData::getName)
            .contains("memcached.cache.lookup", "memcached.cache.lock", "memcached.cache.store");
        assertThat(spans(trace)).filteredOn(span -> span.getKind() != SpanKind.SERVER)
            .allSatisfy(child -> assertThat(child.getParentSpanId()).isEqualTo(server.getSpanId()));
        SpanData backendCall = spans(trace).stream()
            .filter(span -> span.getKind() == SpanKind.CLIENT)
            .findFirst()
            .orElseThrow();
        assertThat(backend.traceparents()).contains("00-" + trace + "-" + backendCall.getSpanId() + "-01");
        assertTimedOnceEach();
    }

    @Test
    void aMissThatIsNotTracedSendsItsBackendAnUnsampledTraceparent() throws Exception {
        int sent = backend.traceparents().size();

        assertThat(get("/yaml/untraced-miss/3", null).headers().firstValue("X-Cache")).hasValue("MISS");

        assertThat(filtered.get("/yaml/untraced-miss/3")).hasValue(1);
        List<String> traceparents = backend.traceparents();
        assertThat(traceparents).hasSize(sent + 1);
        assertThat(traceparents.get(sent)).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00");
    }

    @Test
    void aSampledRequestIsTimedWithTheTagsSpringsObservationGivesAnUnsampledOne() throws Exception {
        String trace = TestTraces.newTraceId();

        assertThat(get("/nowhere/1", null).statusCode()).isEqualTo(404);
        assertThat(get("/nowhere/2", TestTraces.sampled(trace)).statusCode()).isEqualTo(404);

        assertThat(serverSpan(trace).getAttributes().asMap()).isNotEmpty();
        await().atMost(Duration.ofSeconds(5))
            .until(() -> meters.find("http.server.requests").tag("status", "404").timers(),
                    timers -> timers.stream().mapToLong(Timer::count).sum() >= 2);
        assertThat(meters.find("http.server.requests").tag("status", "404").timers()).singleElement()
            .satisfies(timer -> {
                assertThat(timer.count()).isEqualTo(2);
                assertThat(timer.getId().getTag("exception")).isEqualTo("NoResourceFoundException");
            });
        assertTimedOnceEach();
    }

    // Asked until it is a hit: a request that comes while its miss is still being stored
    // shares that miss's answer. How many of those requests the WebFilter saw.
    private int stored(String path) {
        await().atMost(Duration.ofSeconds(10))
            .until(() -> get(path, null).headers().firstValue("X-Cache").orElseThrow().equals("HIT"));
        return filtered.get(path).get();
    }

    private static SpanData serverSpan(String trace) {
        return await().atMost(Duration.ofSeconds(10))
            .until(() -> spans(trace).stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst(),
                    found -> found.isPresent())
            .orElseThrow();
    }

    // A request is timed as its answer ends, which may be after the client has it.
    private void assertTimedOnceEach() {
        await().atMost(Duration.ofSeconds(5)).until(() -> serverRequests() >= sent.get());
        assertThat(serverRequests()).isEqualTo(sent.get());
    }

    private long serverRequests() {
        return meters.find("http.server.requests").timers().stream().mapToLong(Timer::count).sum();
    }

    private HttpResponse<String> get(String path, String traceparent) throws Exception {
        sent.incrementAndGet();
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

        // Before the filter that answers fresh hits on Spring's side.
        @Bean
        @Order(EarlyHitFilter.ORDER - 1)
        WebFilter countsRequests() {
            return (exchange, chain) -> {
                filtered.computeIfAbsent(exchange.getRequest().getPath().value(), path -> new AtomicInteger())
                    .incrementAndGet();
                return chain.filter(exchange);
            };
        }

    }

}
