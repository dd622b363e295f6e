package dev.cachegateway.gateway.cache.hit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.cachegateway.demo.support.HoldingProxy;
import dev.cachegateway.demo.support.JvmPause;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * A lookup given up on because this gateway was paused past its longest wait says nothing
 * of memcached: it is sent once more, so that a paused replica does not ask the backend
 * for what memcached holds. The JVM is stopped for real, as in GatewayDelayTests.
 */
@Testcontainers
@RunsAlone
class ItemLookupPauseTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    // History seed 5240817173513251216: a replica paused for 3 s with its lookup under
    // way answered ERROR (gateway-delay) and asked the origin for a version that
    // memcached
    // held, a second origin call for it.
    @Test
    void looksUpOnceMoreWhenItsOwnPauseOutlastedTheLookup() throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached);
                HoldingProxy network = new HoldingProxy(memcached.getHost(),
                        memcached.getMappedPort(MemcachedContainer.PORT));
                ReactiveMemcached client = TestMemcached.connect("127.0.0.1", network.port(), Duration.ofMillis(500),
                        TestMemcached.breakers(), meters)) {
            raw.set("/a", 0, 60, "{\"v\":14}".getBytes(StandardCharsets.US_ASCII));
            ItemLookup items = new ItemLookup(client, NearCache.off(), DecodedItems.off(),
                    new TagGenerations(client, Duration.ofMillis(500)));
            network.holdAt("/a", 1);

            CompletableFuture<Lookup> lookup = items
                .lookUp("/a", new HttpHeaders(), new BodyFormat(MediaType.APPLICATION_JSON, 2), 0)
                .toFuture();
            await("the lookup is held").atMost(Duration.ofSeconds(5)).until(() -> network.held() > 0);
            // Past the longest wait (1 s): given up on as soon as the gateway runs again.
            JvmPause.stopFor(Duration.ofMillis(2500));
            await("the lookup is given up on").atMost(Duration.ofSeconds(5)).until(() -> delayed() > 0);
            network.release();

            await("the lookup ends").atMost(Duration.ofSeconds(5)).until(lookup::isDone);
            assertThat(lookup.get()).isInstanceOf(Lookup.Hit.class);
        }
    }

    private double delayed() {
        return meters.get("memcached.operations.delayed").counters().stream().mapToDouble(c -> c.count()).sum();
    }

}
