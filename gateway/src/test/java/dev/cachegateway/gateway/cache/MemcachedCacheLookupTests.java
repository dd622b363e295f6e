package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.zip.GZIPOutputStream;

import dev.cachegateway.gateway.support.MemcachedTextClient;
import dev.cachegateway.gateway.support.RecordingBackend;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The lookup half of the filter, nginx's memcached_pass, against a real memcached and a real HTTP backend.
 */
@Testcontainers
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
class MemcachedCacheLookupTests {

    static final String COMMENT =
            "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment to see how this thing works.\"}";

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("memcached.servers", () -> memcached.getHost() + ":" + memcached.getMappedPort(11211));
        registry.add("comments-service.uri", backend::uri);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class ExtraRoutes {

        @Bean
        RouteLocator extraRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
            return routes.routes()
                    .route("gzip", r -> r.path("/gzip/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config()
                                    .setGzipFlag(2))))
                            .uri(backend.uri()))
                    .route("with-args", r -> r.path("/args/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config()
                                    .setKeyTemplate("$uri$is_args$args"))))
                            .uri(backend.uri()))
                    .build();
        }
    }

    @Autowired
    WebTestClient client;

    @LocalServerPort
    int port;

    MemcachedTextClient raw;

    @BeforeEach
    void emptyCache() throws Exception {
        raw = new MemcachedTextClient(memcached.getHost(), memcached.getMappedPort(11211));
        raw.flushAll();
        backend.reset();
    }

    @AfterEach
    void closeRaw() throws Exception {
        raw.close();
    }

    @AfterAll
    static void stopBackend() {
        backend.close();
    }

    @Test
    void servesAHitByteForByteWithoutCallingTheBackend() throws Exception {
        String collection = "[" + String.join(",", Collections.nCopies(25, COMMENT)) + "]";
        raw.set("/api/v1/comments/users/1", 0, 0, bytes(collection));

        client.get().uri("/api/v1/comments/users/1").exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "HIT")
                .expectHeader().valueEquals("Content-Type", "application/json")
                .expectHeader().contentLength(2176)
                .expectHeader().doesNotExist("Content-Encoding")
                .expectBody(byte[].class).isEqualTo(bytes(collection));

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void servesAKeySetByHandOverTheTextProtocol() throws Exception {
        raw.setLiterally("set /api/v1/comments/7 0 0 " + COMMENT.length() + "\r\n" + COMMENT + "\r\n");

        client.get().uri("/api/v1/comments/7").exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "HIT")
                .expectHeader().contentLength(86)
                .expectBody(String.class).isEqualTo(COMMENT);

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void fallsBackToTheBackendOnAMiss() {
        client.get().uri("/api/v1/comments/2").exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "MISS")
                .expectBody(String.class).isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/2"));

        assertThat(backend.calls("/api/v1/comments/2")).isEqualTo(1);
    }

    @Test
    void answersHeadOnAHitWithTheHeadersAndNoBody() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.head().uri("/api/v1/comments/1").exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "HIT")
                .expectHeader().contentLength(86)
                .expectBody().isEmpty();

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void marksAnItemGzippedWhenItsFlagsShareABitWithTheRoutesGzipFlag() throws Exception {
        byte[] gzipped = gzip(COMMENT);
        raw.set("/gzip/flagged", 2 | 8, 0, gzipped);
        raw.set("/gzip/plain", 1, 0, bytes("plain"));
        raw.set("/api/v1/comments/3", 2, 0, bytes(COMMENT));

        // A plain JDK client: WebTestClient would decompress the body and drop the header under test.
        HttpResponse<byte[]> flagged = plainGet("/gzip/flagged");
        assertThat(flagged.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(flagged.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(flagged.body()).isEqualTo(gzipped);

        HttpResponse<byte[]> plain = plainGet("/gzip/plain");
        assertThat(plain.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();

        HttpResponse<byte[]> gzipOff = plainGet("/api/v1/comments/3");
        assertThat(gzipOff.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(gzipOff.headers().firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void looksUpACrLfPathUnderItsEscapedKeySoNoCommandCanBeInjected() throws Exception {
        raw.set("sentinel", 0, 0, bytes("still here"));
        raw.set("/api/v1/comments/x%0D%0Aflush_all", 0, 0, bytes("escaped"));
        long flushesBefore = raw.stat("cmd_flush");

        client.get().uri(URI.create("http://localhost:" + port + "/api/v1/comments/x%0D%0Aflush_all")).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "HIT")
                .expectBody(String.class).isEqualTo("escaped");

        assertThat(raw.get("sentinel")).isNotNull();
        assertThat(raw.stat("cmd_flush")).isEqualTo(flushesBefore);
    }

    @Test
    void bypassesAKeyOver250BytesWithoutAskingMemcached() throws Exception {
        String path = "/api/v1/comments/" + "9".repeat(240);
        long lookupsBefore = raw.stat("cmd_get");

        client.get().uri(path).exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "BYPASS");

        assertThat(raw.stat("cmd_get")).isEqualTo(lookupsBefore);
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void passesARequestWithAuthorizationToTheBackendUntouched() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.get().uri("/api/v1/comments/1").header("Authorization", "Bearer secret").exchange()
                .expectStatus().isOk()
                .expectHeader().valueEquals("X-Cache", "BYPASS")
                .expectBody(String.class).isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/1"));

        assertThat(backend.calls("/api/v1/comments/1")).isEqualTo(1);
    }

    @Test
    void passesOtherMethodsToTheBackend() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.post().uri("/api/v1/comments/1").bodyValue("{}").exchange()
                .expectHeader().valueEquals("X-Cache", "BYPASS");

        assertThat(backend.calls("/api/v1/comments/1")).isEqualTo(1);
    }

    @Test
    void neverLooksUpANoCachePath() throws Exception {
        raw.set("/api/v1/comments/1/no_cache", 0, 0, bytes("stale"));

        client.get().uri("/api/v1/comments/1/no_cache").exchange()
                .expectStatus().isOk()
                .expectHeader().doesNotExist("X-Cache")
                .expectBody(String.class).isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/1/no_cache"));

        assertThat(backend.calls("/api/v1/comments/1/no_cache")).isEqualTo(1);
    }

    @Test
    void ignoresTheQueryStringUnlessTheTemplateNamesIt() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));
        raw.set("/args/list?page=2", 0, 0, bytes("page two"));

        client.get().uri("/api/v1/comments/1?utm=x").exchange().expectHeader().valueEquals("X-Cache", "HIT");
        client.get().uri("/args/list?page=2").exchange()
                .expectHeader().valueEquals("X-Cache", "HIT")
                .expectBody(String.class).isEqualTo("page two");
        client.get().uri("/args/list?page=3").exchange().expectHeader().valueEquals("X-Cache", "MISS");
    }

    @Test
    void replacesAnXCacheHeaderFromTheBackend() {
        backend.reply("/api/v1/comments/5", RecordingBackend.Reply.json("{}", "no-store").withHeader("X-Cache", "HIT"));

        client.get().uri("/api/v1/comments/5").exchange()
                .expectHeader().valueEquals("X-Cache", "MISS");
    }

    private HttpResponse<byte[]> plainGet(String path) throws Exception {
        return HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path)).build(),
                HttpResponse.BodyHandlers.ofByteArray());
    }

    static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
            out.write(bytes(text));
        }
        return compressed.toByteArray();
    }

    static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
