package dev.cachegateway.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
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
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The gateway on a random port, in front of a real memcached (a container per test class) and a real HTTP backend
 * that counts its calls. Besides the application's routes there are {@code /gzip/**}, with gzip flag 2,
 * {@code /args/**}, keyed by {@code $uri$is_args$args}, and {@code /unreachable/**}, whose backend refuses
 * connections.
 */
@Testcontainers
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@DirtiesContext // each class has its own memcached, so no other class may reuse this context
@Import(CacheIntegrationTest.ExtraRoutes.class)
public abstract class CacheIntegrationTest {

    @Container
    protected static final GenericContainer<?> memcached =
            new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    // One for all the classes that extend this one: it stops with the JVM.
    protected static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
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
                    // Port 1: nothing listens there, so every connection is refused.
                    .route("unreachable", r -> r.path("/unreachable/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                            .uri("http://127.0.0.1:1"))
                    .build();
        }
    }

    @Autowired
    protected WebTestClient client;

    @LocalServerPort
    protected int port;

    protected MemcachedTextClient raw;

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        raw = new MemcachedTextClient(memcached.getHost(), memcached.getMappedPort(11211));
        raw.flushAll();
        backend.reset();
    }

    @AfterEach
    void closeRawClient() throws Exception {
        raw.close();
    }

    /** Waits for a background store to land; stores reach memcached in order, so earlier ones have landed too. */
    protected MemcachedTextClient.Item awaitStored(String key) throws Exception {
        for (int attempt = 0; attempt < 100; attempt++) {
            MemcachedTextClient.Item item = raw.get(key);
            if (item != null) {
                return item;
            }
            Thread.sleep(50);
        }
        throw new AssertionError(key + " was not stored within 5 s");
    }

    /** A plain JDK client, for what WebTestClient would change: it decompresses gzip and drops the header. */
    protected HttpResponse<byte[]> plainGet(String path, String... headers) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (headers.length > 0) {
            request.headers(headers);
        }
        return HttpClient.newHttpClient().send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    protected static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    protected static byte[] gzip(String text) throws IOException {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream out = new GZIPOutputStream(compressed)) {
            out.write(bytes(text));
        }
        return compressed.toByteArray();
    }
}
