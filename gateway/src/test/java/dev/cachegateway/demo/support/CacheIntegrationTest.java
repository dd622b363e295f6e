package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.zip.GZIPOutputStream;

import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.testcontainers.containers.GenericContainer;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The gateway on a random port, in front of a real memcached and a real HTTP backend that
 * counts its calls, with the application's routes and the {@link ExtraRoutes}. Every
 * class shares the memcached, and the classes that add no settings of their own share the
 * gateway too; those that do mark it dirty, so that it closes after them. Each test
 * starts once the gateway is at rest ({@link GatewayAtRest}), on an empty memcached.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@Import(ExtraRoutes.class)
public abstract class CacheIntegrationTest {

    protected static final GenericContainer<?> memcached = MemcachedContainer.shared();

    // One for all the classes that extend this one: it stops with the JVM.
    protected static final RecordingBackend backend = RecordingBackend.startQuietly();

    /**
     * The backend of the {@code /raw/**} route, for answers that no HTTP server would
     * send.
     */
    protected static final RawBackend rawBackend = RawBackend.startQuietly();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        gatewayProperties(registry, memcached, backend);
    }

    /**
     * The gateway in front of {@code memcached} and {@code backend}, for a test class
     * with a context of its own.
     */
    public static void gatewayProperties(DynamicPropertyRegistry registry, GenericContainer<?> memcached,
            RecordingBackend backend) {
        registry.add("memcached.servers", () -> MemcachedContainer.address(memcached));
        registry.add("comments-service.uri", backend::uri);
        // Semantics, not speed, are under test: a loaded CI machine must not turn a slow
        // lookup into an ERROR.
        registry.add("memcached.operation-timeout", () -> "500ms");
        registry.add("memcached.cache.purge-token", () -> PurgeToken.TOKEN);
    }

    @Autowired
    protected WebTestClient client;

    @Autowired
    private ReactiveMemcached memcachedClient;

    @Autowired
    private ApplicationContext gateway;

    @LocalServerPort
    protected int port;

    protected MemcachedTextClient raw;

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        TestMemcached.awaitConnected(memcachedClient);
        GatewayAtRest.waitFor(gateway);
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        backend.reset();
    }

    @AfterEach
    void closeRawClient() throws Exception {
        raw.close();
    }

    /**
     * Waits for a background store to land; stores reach memcached in order, so earlier
     * ones have landed too.
     */
    protected MemcachedTextClient.Item awaitStored(String key) {
        return raw.await(key);
    }

    /**
     * A plain JDK client, for what WebTestClient would change: it decompresses gzip and
     * drops the header.
     */
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
