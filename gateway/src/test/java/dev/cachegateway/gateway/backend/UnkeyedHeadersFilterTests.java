package dev.cachegateway.gateway.backend;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.demo.support.ByteRecordingBackend;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawAnswers;
import dev.cachegateway.demo.support.RawAnswers.Answer;
import dev.cachegateway.demo.support.StrictHttp;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * Headers that change what a backend serves but are not in the key never reach the
 * backend of a cached route from a client, so the item a request with one stores is the
 * item a plain request stores; from a trusted proxy (127.0.0.2 here) they do, and a route
 * without the cache passes them on untouched.
 */
@Import(UnkeyedHeadersFilterTests.Routes.class)
@TestPropertySource(properties = "spring.cloud.gateway.server.webflux.trusted-proxies=127\\.0\\.0\\.2")
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class UnkeyedHeadersFilterTests extends CacheIntegrationTest {

    static final ByteRecordingBackend recorder = ByteRecordingBackend.startQuietly();

    @BeforeEach
    void forgetWhatTheBackendGot() {
        recorder.reset();
    }

    @ParameterizedTest
    @ValueSource(strings = { "X-Forwarded-Host: evil.example", "X-Forwarded-Scheme: http", "X-Forwarded-Proto: http",
            "Forwarded: host=evil.example;proto=http", "X-Host: evil.example", "X-Original-URL: /admin",
            "X-Rewrite-URL: /admin", "X-HTTP-Method-Override: DELETE" })
    void keepsAnUnkeyedHeaderFromTheBackendAndStoresWhatAPlainRequestStores(String header) throws Exception {
        String name = header.substring(0, header.indexOf(':'));
        String path = "/unkeyed/" + name.toLowerCase();

        Answer answer = get(path, InetAddress.getLoopbackAddress(), header);
        byte[] stored = awaitStored(path).value();
        raw.flushAll();
        get(path, InetAddress.getLoopbackAddress());
        byte[] plain = awaitStored(path).value();

        assertThat(answer.status()).isEqualTo(200);
        assertThat(answer.header("X-Cache")).isEqualTo("MISS");
        assertThat(recorder.requests()).hasSize(2)
            .allSatisfy(
                    request -> assertThat(request.fields()).noneMatch(field -> field.getKey().equalsIgnoreCase(name)));
        assertThat(new String(stored, StandardCharsets.UTF_8)).isEqualTo(new String(plain, StandardCharsets.UTF_8));
    }

    @ParameterizedTest
    @ValueSource(strings = { "X-Forwarded-Host: proxy.example", "X-Original-URL: /admin" })
    void passesAnUnkeyedHeaderFromATrustedProxy(String header) throws Exception {
        // A path of each case's own: the store of the case before may land after this one
        // emptied memcached.
        String name = header.substring(0, header.indexOf(':'));
        get("/unkeyed/trusted/" + name.toLowerCase(), InetAddress.getByName("127.0.0.2"), header);

        assertThat(recorder.requests()).singleElement()
            .extracting(request -> request.field(name.toLowerCase()))
            .isNotNull();
    }

    @ParameterizedTest
    @ValueSource(strings = { "X-Original-URL: /admin", "X-HTTP-Method-Override: DELETE" })
    void leavesTheHeadersOfAnUncachedRouteAlone(String header) throws Exception {
        get("/uncached/1", InetAddress.getLoopbackAddress(), header);

        List<StrictHttp.Request> got = recorder.requests();
        assertThat(got).singleElement()
            .extracting(request -> request.field(header.substring(0, header.indexOf(':')).toLowerCase()))
            .isNotNull();
    }

    private Answer get(String path, InetAddress from, String... headers) throws Exception {
        StringBuilder request = new StringBuilder("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n");
        for (String header : headers) {
            request.append(header).append("\r\n");
        }
        request.append("Connection: close\r\n\r\n");
        List<Answer> answers = RawAnswers.exchange(port, request.toString().getBytes(StandardCharsets.ISO_8859_1),
                from);
        assertThat(answers).hasSize(1);
        return answers.get(0);
    }

    /**
     * {@code /unkeyed/**}, a cached route, and {@code /uncached/**}, one without the
     * cache.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class Routes {

        @Bean
        RouteLocator unkeyedRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
            return routes.routes()
                .route("unkeyed",
                        r -> r.path("/unkeyed/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                            .uri(recorder.uri()))
                .route("uncached", r -> r.path("/uncached/**").uri(recorder.uri()))
                .build();
        }

    }

}
