package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.demo.support.HoldingProxy;
import dev.cachegateway.demo.support.JvmPause;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.invalidate.KeyInvalidation;
import dev.cachegateway.gateway.cache.key.HttpKeyPrefix;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.StoresUnderWay;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.cache.purge.SoftPurge;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.tag.TagPurge;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.gateway.memcached.pool.ServerResolver;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * A purge through the management endpoint, against a real memcached behind a proxy that
 * can hold what the gateway sends, so that a delete is in flight while this JVM is
 * stopped.
 */
@Testcontainers
@RunsAlone
class MemcachedCacheEndpointTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private HoldingProxy proxy;

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    private MemcachedCacheEndpoint endpoint;

    @BeforeEach
    void connect() throws Exception {
        proxy = new HoldingProxy(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT));
        client = TestMemcached.awaitConnected(TestMemcached.pool(List.of("127.0.0.1:" + proxy.port()),
                Duration.ofMillis(500), ServerResolver.DNS, TestMemcached.breakers(), meters));
        raw = MemcachedContainer.textClient(memcached);
        KeyInvalidation keys = new KeyInvalidation(client, NearCache.off(), new InFlightRequests(),
                new WriteFences(client), new StoresUnderWay(client, Duration.ofSeconds(5), true));
        endpoint = new MemcachedCacheEndpoint(keys, new SoftPurge(client, keys), new HttpKeyPrefix("http:"),
                new TagPurge(client, new TagGenerations(client, Duration.ofMillis(500))));
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
        proxy.close();
    }

    @Test
    void deletesAnItemWhoseDeleteTimedOutWhileTheGatewayWasPaused() throws Exception {
        raw.set("/purged", 0, 0, "old".getBytes(StandardCharsets.UTF_8));
        proxy.hold();
        CompletableFuture<WebEndpointResponse<Map<String, Object>>> purge = endpoint
            .deleteKeyOrTag("/purged", null, null)
            .toFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> proxy.held() > 0);
        // Lets the delete through only once the gateway has given it up as delayed by
        // its own pause, past its longest wait (1 s), so that memcached answers nothing
        // before that.
        Thread releaser = new Thread(() -> {
            await().atMost(Duration.ofSeconds(30)).until(() -> delayed() > 0);
            proxy.release();
        });
        releaser.start();

        JvmPause.stopFor(Duration.ofSeconds(2));

        WebEndpointResponse<Map<String, Object>> answer = purge.get(10, TimeUnit.SECONDS);
        assertThat(answer.getStatus()).as("%s", answer.getBody()).isEqualTo(WebEndpointResponse.STATUS_OK);
        assertThat(delayed()).isEqualTo(1);
        assertThat(raw.get("/purged")).isNull();
        releaser.join(10_000);
    }

    @Test
    void answers503WhenMemcachedDoesNotAnswerTheDelete() throws Exception {
        proxy.hold();

        WebEndpointResponse<Map<String, Object>> answer = endpoint.deleteKeyOrTag("/held", null, null)
            .block(Duration.ofSeconds(10));

        assertThat(answer.getStatus()).isEqualTo(WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE);
        assertThat(answer.getBody()).containsEntry("key", "/held");
        assertThat(delayed()).isZero();
    }

    private double delayed() {
        return meters.find("memcached.operations.delayed").counters().stream().mapToDouble(c -> c.count()).sum();
    }

}
