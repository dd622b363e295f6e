package dev.cachegateway.gateway.warmup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cachegateway.gateway.support.CacheIntegrationTest;
import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
import dev.cachegateway.gateway.support.RecordingBackend;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway that warms up for a second before it says ready, in front of a real memcached and a real backend: the
 * warm-up goes through the cache before readiness, reaches no real backend, writes only under its reserved prefix, and leaves
 * no route behind.
 */
@Testcontainers
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT, properties = "gateway.warm-up.duration=1s")
@AutoConfigureWebTestClient
@DirtiesContext
@Import(WarmUpTests.ReadinessWatch.class)
class WarmUpTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        CacheIntegrationTest.gatewayProperties(registry, memcached, backend);
    }

    @Autowired
    ReadinessWatch readiness;

    @Autowired
    RouteLocator routes;

    @Autowired
    WebTestClient client;

    @Test
    void hitsAndMissesTheCacheBeforeReadinessSaysUp() {
        assertThat(readiness.lookupsWhenReady).containsKeys("hit", "miss");
        assertThat(readiness.lookupsWhenReady.get("hit")).isPositive();
        assertThat(readiness.lookupsWhenReady.get("miss")).isPositive();
    }

    @Test
    void reachesNoRealBackendAndWritesOnlyUnderItsReservedPrefix() throws Exception {
        assertThat(backend.totalCalls()).isZero();
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            assertThat(raw.keys()).contains(WarmUpRoutes.KEY_PREFIX + WarmUpRoutes.HIT)
                    .allMatch(key -> key.startsWith(WarmUpRoutes.KEY_PREFIX));
            // Besides the hit route's item, the misses stored items (and locks) of their own.
            assertThat(raw.stat("total_items")).isGreaterThan(2);
        }
    }

    @Test
    void leavesNoRouteBehind() {
        assertThat(routes.getRoutes().map(Route::getId).collectList().block())
                .isNotEmpty()
                .noneMatch(id -> id.startsWith(WarmUpRoutes.ID_PREFIX));
        client.get().uri(WarmUpRoutes.PATHS.get(0)).header(WarmUpRoutes.TOKEN_HEADER, "any").exchange()
                .expectStatus().isNotFound();
    }

    /** The lookups counted by result at the moment readiness turns to ACCEPTING_TRAFFIC. */
    @TestConfiguration(proxyBeanMethods = false)
    static class ReadinessWatch implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

        final Map<String, Double> lookupsWhenReady = new ConcurrentHashMap<>();

        private final ObjectProvider<MeterRegistry> meters;

        ReadinessWatch(ObjectProvider<MeterRegistry> meters) {
            this.meters = meters;
        }

        @Override
        public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
            if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
                for (Counter counter : meters.getObject().find("memcached.cache.lookups").counters()) {
                    lookupsWhenReady.put(counter.getId().getTag("result"), counter.count());
                }
            }
        }
    }
}
