package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.zip.GZIPOutputStream;

import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.gateway.cache.format.FormatName;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import reactor.core.publisher.Mono;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * The same requests to two gateways on one memcached and one backend, one with
 * {@code memcached.cache.hits-skip-web-filters} and one without: every answer is the
 * same, byte for byte but the clock's headers, and so is the {@code http.server.requests}
 * timer; a WebFilter of the application's own sees no fresh hit on the first, and every
 * request on the second, which shows that the answers compared came by different paths.
 */
class FastHitHandlerTests {

    private static final GenericContainer<?> memcached = MemcachedContainer.shared();

    private static final RecordingBackend backend = RecordingBackend.startQuietly();

    private static final String COMMENT = "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment.\"}";

    private static ConfigurableApplicationContext below;

    private static ConfigurableApplicationContext through;

    // The requests sent to each gateway, each of which its server timer counts.
    private static final Map<ConfigurableApplicationContext, AtomicLong> sent = new ConcurrentHashMap<>();

    private MemcachedTextClient raw;

    @BeforeAll
    static void startGateways() {
        below = start("--memcached.cache.hits-skip-web-filters=true");
        // The demo answers below the WebHandler; this one is the starter's default.
        through = start("--memcached.cache.hits-skip-web-filters=false");
    }

    @AfterAll
    static void stopGateways() {
        below.close();
        through.close();
    }

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        backend.reset();
        // The routes load after startup, and with them the early hit's candidates.
        raw.set("/api/v1/comments/0", 0, 0, bytes(COMMENT));
        for (ConfigurableApplicationContext gateway : List.of(below, through)) {
            await().atMost(Duration.ofSeconds(10))
                .until(() -> answer(gateway, get("/api/v1/comments/0")).contains("X-Cache: HIT"));
        }
        raw.flushAll();
        requests(below).set(0);
        requests(through).set(0);
    }

    @Test
    void wrapsSpringsHandlerOnlyWhereAskedTo() {
        assertThat(below.getBean(HttpHandler.class)).isInstanceOf(FastHitHandler.class);
        assertThat(through.getBean(HttpHandler.class)).isExactlyInstanceOf(HttpWebHandlerAdapter.class);
    }

    @Test
    void answersFreshHitsAsTheWebFilterPathDoesByteForByte() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));
        raw.set("/gzip/1", 2, 0, gzip(COMMENT));
        answer(through, get("/whole/1"));
        raw.await("http:/whole/1");
        String etag = header(answer(through, get("/api/v1/comments/1")), "ETag");
        requests(through).set(0);
        List<String> hits = List.of(get("/api/v1/comments/1"), "HEAD /api/v1/comments/1 HTTP/1.1\r\nHost: x\r\n\r\n",
                get("/api/v1/comments/1", "If-None-Match: " + etag),
                "GET /api/v1/comments/1 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n",
                get("/gzip/1", "Accept-Encoding: gzip"), get("/whole/1"));

        for (String request : hits) {
            assertThat(answer(below, request)).as(request).isEqualTo(answer(through, request));
        }

        assertThat(requests(below).get()).as("fresh hits that went through WebFilters").isZero();
        assertThat(requests(through).get()).isEqualTo(hits.size());
    }

    @Test
    void leavesAnythingButAFreshHitToWebFiltersWithTheLookupItMade() throws Exception {
        raw.set("/gzip/2", 2, 0, gzip(COMMENT));
        raw.set("/gzip/12", 2, 0, gzip(COMMENT));

        long belowLookups = lookups(below, 2);
        long throughLookups = lookups(through, 12);

        assertThat(requests(below).get()).isEqualTo(4);
        // The lookups of the miss and of the gzip item a client without gzip asked for
        // are made once, and handed on, not made again.
        assertThat(belowLookups).isEqualTo(throughLookups);
        assertThat(backend.calls("/api/v1/comments/2")).isEqualTo(1);
    }

    @Test
    void timesFreshHitsInTheTimerSpringsObservationRecordsInto() throws Exception {
        raw.set("/api/v1/comments/6", 0, 0, bytes(COMMENT));
        String etag = header(answer(through, get("/api/v1/comments/6")), "ETag");
        List<String> hits = List.of(get("/api/v1/comments/6"), "HEAD /api/v1/comments/6 HTTP/1.1\r\nHost: x\r\n\r\n",
                get("/api/v1/comments/6", "If-None-Match: " + etag));
        Map<Meter.Id, Long> belowBefore = timersOnceAllTimed(below);
        Map<Meter.Id, Long> throughBefore = timersOnceAllTimed(through);

        for (String request : hits) {
            answer(below, request);
            answer(through, request);
        }

        Map<Meter.Id, Long> belowCounted = counted(belowBefore, timersOnceAllTimed(below));
        assertThat(belowCounted).hasSize(3).isEqualTo(counted(throughBefore, timersOnceAllTimed(through)));
        assertThat(requests(below).get()).isZero();
    }

    // A miss, a gzip item for a client without gzip, a bypass and a write, on keys of
    // their own: the lookups they cost memcached.
    private long lookups(ConfigurableApplicationContext gateway, int id) throws IOException {
        long before = raw.stat("cmd_get");
        for (String request : List.of(get("/api/v1/comments/" + id), get("/gzip/" + id),
                get("/api/v1/comments/" + (id + 1), "Authorization: Bearer x"),
                "POST /api/v1/comments/" + (id + 2) + " HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")) {
            assertThat(answer(gateway, request)).as(request).doesNotContain("X-Cache: HIT");
        }
        return raw.stat("cmd_get") - before;
    }

    private static ConfigurableApplicationContext start(String... settings) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
                "--comments-service.uri=" + backend.uri(),
                "--memcached.servers=" + MemcachedContainer.address(memcached), "--memcached.operation-timeout=500ms",
                // Small, so that a permit that a request kept would soon turn
                // every request away.
                "--memcached.overload.max-concurrent-requests=4"));
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(GatewayApplication.class, OwnRoutesAndFilter.class)
            .run(args.toArray(String[]::new));
    }

    // A request is timed once its answer is written, which may be after the client has
    // read it, on either path: the timers once they count every request sent so far.
    private static Map<Meter.Id, Long> timersOnceAllTimed(ConfigurableApplicationContext gateway) {
        long sentSoFar = sent.get(gateway).get();
        return await().atMost(Duration.ofSeconds(5)).until(() -> timers(gateway), timers -> total(timers) == sentSoFar);
    }

    // The timers of requests to the gateway's own port, and their counts.
    private static Map<Meter.Id, Long> timers(ConfigurableApplicationContext gateway) {
        return gateway.getBean(MeterRegistry.class)
            .find("http.server.requests")
            .timers()
            .stream()
            .filter(timer -> !timer.getId().getTag("uri").startsWith("/actuator"))
            .collect(Collectors.toMap(Timer::getId, Timer::count));
    }

    private static long total(Map<Meter.Id, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    private static Map<Meter.Id, Long> counted(Map<Meter.Id, Long> before, Map<Meter.Id, Long> after) {
        Set<Meter.Id> grown = after.keySet()
            .stream()
            .filter(id -> after.get(id) > before.getOrDefault(id, 0L))
            .collect(Collectors.toSet());
        return grown.stream().collect(Collectors.toMap(id -> id, id -> after.get(id) - before.getOrDefault(id, 0L)));
    }

    private static AtomicInteger requests(ConfigurableApplicationContext gateway) {
        return gateway.getBean("webFilterRequests", AtomicInteger.class);
    }

    private static String get(String path, String... headers) {
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: x\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        return request.append("\r\n").toString();
    }

    /**
     * The answer as sent, but the values of the clock's headers: Date, and Age, which
     * counts seconds.
     */
    private static String answer(ConfigurableApplicationContext gateway, String request) throws IOException {
        sent.computeIfAbsent(gateway, started -> new AtomicLong()).incrementAndGet();
        int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request.getBytes(StandardCharsets.ISO_8859_1));
            String answer = read(socket.getInputStream(), request.startsWith("HEAD"));
            return answer.replaceAll("(?m)^(Date|Age): .*$", "$1: <clock>");
        }
    }

    private static String read(InputStream in, boolean head) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        while (!bytes.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b == -1) {
                throw new IOException("Closed after: " + bytes.toString(StandardCharsets.ISO_8859_1));
            }
            bytes.write(b);
        }
        String text = bytes.toString(StandardCharsets.ISO_8859_1);
        String length = header(text, "Content-Length");
        int body = head || length == null ? 0 : Integer.parseInt(length);
        return text + new String(in.readNBytes(body), StandardCharsets.ISO_8859_1);
    }

    private static String header(String answer, String name) {
        return answer.lines()
            .filter(line -> line.regionMatches(true, 0, name + ":", 0, name.length() + 1))
            .map(line -> line.substring(name.length() + 1).trim())
            .findFirst()
            .orElse(null);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
            out.write(bytes(text));
        }
        return compressed.toByteArray();
    }

    /**
     * A route with a gzip flag and one of whole answers, and a WebFilter of the
     * application's own that counts the requests to cached routes it sees.
     */
    @Configuration(proxyBeanMethods = false)
    static class OwnRoutesAndFilter {

        @Bean
        RouteLocator fastHitRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
            return routes.routes()
                .route("gzip", r -> r.path("/gzip/**")
                    .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config().setGzipFlag(2))))
                    .uri(backend.uri()))
                .route("whole",
                        r -> r.path("/whole/**")
                            .filters(f -> f.filter(cache
                                .apply(new MemcachedCacheGatewayFilterFactory.Config().setItemFormat(FormatName.HTTP))))
                            .uri(backend.uri()))
                .build();
        }

        @Bean
        AtomicInteger webFilterRequests() {
            return new AtomicInteger();
        }

        @Bean
        CountingFilter countsRequests(AtomicInteger webFilterRequests) {
            return new CountingFilter(webFilterRequests);
        }

    }

    /** Before the early hit's filter, which answers a hit without going on. */
    record CountingFilter(AtomicInteger requests) implements WebFilter, Ordered {

        @Override
        public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
            if (!exchange.getRequest().getPath().value().startsWith("/actuator")) {
                requests.incrementAndGet();
            }
            return chain.filter(exchange);
        }

        @Override
        public int getOrder() {
            return EarlyHitFilter.ORDER - 1;
        }

    }

}
