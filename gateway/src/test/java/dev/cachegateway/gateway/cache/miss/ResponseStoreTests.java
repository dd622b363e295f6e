package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

@Testcontainers
class ResponseStoreTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final CircuitBreakerRegistry breakers = TestMemcached.breakers();

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), breakers, meters);
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        var docker = memcached.getDockerClient();
        if (Boolean.TRUE.equals(docker.inspectContainerCmd(memcached.getContainerId()).exec().getState().getPaused())) {
            docker.unpauseContainerCmd(memcached.getContainerId()).exec();
        }
        client.close();
        raw.close();
    }

    @Test
    void storesTheBodyWithTheDecidedLifetimeAndFlags() throws Exception {
        ResponseStore store = new ResponseStore(client, 8, new CacheMetrics(meters));

        store.store("/doc", item("{\"a\":1}", 2), 42, taken -> {
        });

        MemcachedTextClient.Item item = raw.await("/doc");
        assertThat(new String(item.value(), StandardCharsets.UTF_8)).isEqualTo("{\"a\":1}");
        assertThat(item.flags()).isEqualTo(2);
        assertThat(raw.ttl("/doc")).isBetween(40L, 42L);
        // memcached holds the item a moment before its acknowledgement reaches the
        // gateway and is counted.
        awaitCount("stored", "none", 1);
    }

    @Test
    void dropsAndCountsStoresBeyondTheBoundWhileMemcachedIsSlow() throws Exception {
        ResponseStore store = new ResponseStore(client, 1, new CacheMetrics(meters));
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();

        for (int i = 0; i < 5; i++) {
            store.store("/slow/" + i, item("{}", 0), 60, taken -> {
            });
        }

        assertThat(stores("dropped", "busy")).isEqualTo(4);
        awaitCount("failed", "failed", 1);
    }

    @Test
    void dropsAndCountsStoresWhileTheCircuitIsOpen() {
        ResponseStore store = new ResponseStore(client, 8, new CacheMetrics(meters));
        breakers.circuitBreaker(memcached.getHost() + ":" + memcached.getMappedPort(11211)).transitionToOpenState();

        store.store("/open", item("{}", 0), 60, taken -> {
        });

        assertThat(stores("dropped", "circuit-open")).isEqualTo(1);
    }

    private void awaitCount(String result, String reason, double expected) {
        Awaitility.await().atMost(Duration.ofSeconds(5)).until(() -> stores(result, reason) >= expected);
        assertThat(stores(result, reason)).isEqualTo(expected);
    }

    private double stores(String result, String reason) {
        return meters.get("memcached.cache.stores").tag("result", result).tag("reason", reason).counter().count();
    }

    private static CachedItem item(String body, int flags) {
        return new CachedItem(body.getBytes(StandardCharsets.UTF_8), flags);
    }

}
