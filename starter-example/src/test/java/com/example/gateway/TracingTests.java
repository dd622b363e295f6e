package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Collectors;

import dev.cachegateway.gateway.cache.trace.CacheSpans;
import io.opentelemetry.api.common.AttributeKey;
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
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A user's gateway that traces, with Boot's OpenTelemetry starter: each request is one
 * trace, its server span the parent of the cache's lookup, the lock and the store of a
 * miss, and of the gateway's backend call, which sends the trace on in
 * {@code traceparent}. The client starts each trace, so that its spans are told apart.
 */
@Testcontainers
@SpringBootTest(classes = ExampleGatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "management.tracing.sampling.probability=1.0", "management.tracing.export.enabled=true",
                "management.otlp.metrics.export.enabled=false" })
@Import(TracingTests.InMemorySpans.class)
class TracingTests {

    static final InMemorySpanExporter spans = InMemorySpanExporter.create();

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    static final CountingBackend backend = new CountingBackend();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    CacheSpans cacheSpans;

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
    void theCacheMakesSpansWhereTheApplicationHasATracer() {
        assertThat(cacheSpans).isNotSameAs(CacheSpans.off());
    }

    @Test
    void aMissIsLookupLockBackendAndStoreUnderTheServerSpan() throws Exception {
        String trace = TestTraces.newTraceId();
        assertThat(get("/yaml/traced/1", trace).headers().firstValue("X-Cache")).hasValue("MISS");

        Map<String, SpanData> byName = await().atMost(Duration.ofSeconds(10))
            .until(() -> byName(trace), named -> named.containsKey("memcached.cache.store"));
        SpanData server = serverSpan(trace);
        assertThat(byName.get("memcached.cache.lookup")).satisfies(lookup -> {
            assertThat(lookup.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(attribute(lookup, "result")).isEqualTo("miss");
            assertThat(attribute(lookup, "memcached.key")).isEqualTo("/yaml/traced/1");
            assertThat(attribute(lookup, "memcached.node")).endsWith(":" + memcached.getMappedPort(11211));
        });
        assertThat(byName.get("memcached.cache.lock")).satisfies(lock -> {
            assertThat(lock.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(attribute(lock, "result")).isEqualTo("held");
        });
        assertThat(byName.get("memcached.cache.store")).satisfies(store -> {
            assertThat(store.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(attribute(store, "result")).isEqualTo("stored");
        });
        SpanData backendCall = spans(trace).stream()
            .filter(span -> span.getKind() == SpanKind.CLIENT)
            .findFirst()
            .orElseThrow();
        assertThat(backend.traceparents()).contains("00-" + trace + "-" + backendCall.getSpanId() + "-01");
    }

    @Test
    void aHitIsALookupAlone() throws Exception {
        get("/yaml/traced/2", TestTraces.newTraceId());
        String trace = TestTraces.newTraceId();
        // The store lands after the answer; the last X-Cache seen is in the message if
        // none is a hit.
        await().atMost(Duration.ofSeconds(5))
            .until(() -> get("/yaml/traced/2", trace).headers().firstValue("X-Cache").orElse("none"), "HIT"::equals);

        Map<String, SpanData> byName = await().atMost(Duration.ofSeconds(10))
            .until(() -> byName(trace), named -> named.containsKey("memcached.cache.lookup"));
        assertThat(attribute(byName.get("memcached.cache.lookup"), "result")).isEqualTo("hit");
        assertThat(byName).doesNotContainKeys("memcached.cache.lock", "memcached.cache.store");
        assertThat(spans(trace)).noneMatch(span -> span.getKind() == SpanKind.CLIENT);
        assertThat(backend.traceparents()).noneMatch(sent -> sent.contains(trace));
    }

    @Test
    void aCoalescedMissWaitsForTheLeadsAnswerWithoutABackendCall() throws Exception {
        String leading = TestTraces.newTraceId();
        String following = TestTraces.newTraceId();
        // The backend takes 2 s over a /slow/ path: the second request, sent once the
        // first holds the lock, finds its miss in flight.
        CompletableFuture<HttpResponse<String>> first = getAsync("/yaml/slow/3", leading);
        await().atMost(Duration.ofSeconds(5)).until(() -> byName(leading).containsKey("memcached.cache.lock"));
        HttpResponse<String> second = get("/yaml/slow/3", following);

        assertThat(first.get().headers().firstValue("X-Cache")).hasValue("MISS");
        assertThat(second.headers().firstValue("X-Cache")).hasValue("COALESCED");
        // It joined the lead in flight here without a lookup: a lookup would miss.
        Map<String, SpanData> byName = await().atMost(Duration.ofSeconds(10))
            .until(() -> byName(following), named -> named.containsKey("memcached.cache.follow"));
        assertThat(byName.get("memcached.cache.follow")).satisfies(follow -> {
            assertThat(follow.getParentSpanId()).isEqualTo(serverSpan(following).getSpanId());
            assertThat(attribute(follow, "result")).isEqualTo("coalesced");
            assertThat(attribute(follow, "memcached.key")).isEqualTo("/yaml/slow/3");
        });
        assertThat(byName).doesNotContainKeys("memcached.cache.lock", "memcached.cache.store");
        assertThat(spans(following)).noneMatch(span -> span.getKind() == SpanKind.CLIENT);
        assertThat(backend.traceparents()).noneMatch(sent -> sent.contains(following))
            .anyMatch(sent -> sent.contains(leading));
    }

    @Test
    void aRequestWhoseTraceIsNotSampledMakesNoSpans() throws Exception {
        String unsampled = TestTraces.newTraceId();
        http.send(TestTraces.get(port, "/yaml/traced/4", "00-" + unsampled + "-00f067aa0ba902b7-00"),
                HttpResponse.BodyHandlers.ofString());
        // A sampled request after it: once its spans are in, the other's would be too.
        String sampled = TestTraces.newTraceId();
        get("/yaml/traced/4", sampled);
        // It looks up, or follows the other's lead while its store is under way.
        await().atMost(Duration.ofSeconds(10)).until(() -> !byName(sampled).isEmpty());

        assertThat(spans(unsampled)).isEmpty();
    }

    @Test
    void anUnsampledTraceparentIsSentOnAsItCame() throws Exception {
        String unsampled = "00-" + TestTraces.newTraceId() + "-00f067aa0ba902b7-00";
        http.send(TestTraces.get(port, "/yaml/traced/5", unsampled), HttpResponse.BodyHandlers.ofString());

        assertThat(backend.traceparents()).contains(unsampled);
        assertThat(spans(unsampled.substring(3, 35))).isEmpty();
    }

    @Test
    void aRequestWithoutATraceIsSampledAtFullSampling() throws Exception {
        int sent = backend.traceparents().size();
        HttpResponse<String> answer = http.send(TestTraces.get(port, "/yaml/traced/6", null),
                HttpResponse.BodyHandlers.ofString());
        assertThat(answer.headers().firstValue("X-Cache")).hasValue("MISS");

        String traceparent = backend.traceparents().get(sent);
        assertThat(traceparent).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-01");
        String trace = traceparent.substring(3, 35);
        await().atMost(Duration.ofSeconds(10)).until(() -> byName(trace).containsKey("memcached.cache.lookup"));
        SpanData server = serverSpan(trace);
        assertThat(server.getParentSpanContext().isValid()).isFalse();
        assertThat(byName(trace).get("memcached.cache.lookup").getParentSpanId()).isEqualTo(server.getSpanId());
        assertThat(spans(trace))
            .anyMatch(span -> span.getKind() == SpanKind.CLIENT && traceparent.contains("-" + span.getSpanId() + "-"));
    }

    private HttpResponse<String> get(String path, String trace) throws Exception {
        return http.send(request(path, trace), HttpResponse.BodyHandlers.ofString());
    }

    private CompletableFuture<HttpResponse<String>> getAsync(String path, String trace) {
        return http.sendAsync(request(path, trace), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest request(String path, String trace) {
        return TestTraces.get(port, path, TestTraces.sampled(trace));
    }

    private static List<SpanData> spans(String trace) {
        return TestTraces.spans(spans, trace);
    }

    private static Map<String, SpanData> byName(String trace) {
        return spans(trace).stream()
            .filter(span -> span.getName().startsWith("memcached.cache."))
            .collect(Collectors.toMap(SpanData::getName, span -> span, (one, other) -> one));
    }

    private static SpanData serverSpan(String trace) {
        return spans(trace).stream().filter(span -> span.getKind() == SpanKind.SERVER).findFirst().orElseThrow();
    }

    private static String attribute(SpanData span, String name) {
        return span.getAttributes().get(AttributeKey.stringKey(name));
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class InMemorySpans {

        // A span processor of its own, not an exporter bean, which Boot would batch.
        @Bean
        SpanProcessor inMemorySpans() {
            return SimpleSpanProcessor.create(spans);
        }

    }

}
