package dev.cachegateway.gateway.warmup;

import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.test.web.reactive.server.WebTestClient;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway that warms up for a second before it says ready, in front of a real memcached
 * and a real backend, with the demo's paths like clients' (application.yml): the warm-up
 * goes through the cache before readiness, on its own routes and through the configured
 * routes' predicates, reaches no real backend, writes only under its reserved prefix, and
 * leaves no route behind.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = "memcached.warm-up.duration=1s")
@AutoConfigureWebTestClient
class WarmUpTests extends WarmUpIntegrationTest {

    @Autowired
    RouteLocator routes;

    @Autowired
    WebTestClient client;

    @Autowired
    WarmUpProperties properties;

    @Test
    void hitsAndMissesTheCacheBeforeReadinessSaysUp() {
        assertThat(readiness.lookupsWhenReady).containsKeys("hit", "miss");
        assertThat(readiness.lookupsWhenReady.get("hit")).isPositive();
        assertThat(readiness.lookupsWhenReady.get("miss")).isPositive();
    }

    // The expiring item's requests come together: the first that misses asks the backend
    // and the others wait for its answer.
    @Test
    void coalescesTheMissesOfTheExpiringItem() {
        assertThat(readiness.routeLookupsWhenReady.get(WarmUpRoutes.ID_PREFIX + WarmUpRoutes.EXPIRING + " coalesced"))
            .isPositive();
    }

    @Test
    void takesTheConfiguredRoutesForThePathsLikeClients() {
        assertThat(properties.getPaths()).contains("/api/v1/comments/1", "/api/v1/comments/1/no_cache");
        // The demo's cached route, as its mirror: hits, and misses with a query string.
        assertThat(readiness.routeLookupsWhenReady.get(WarmUpMirrors.ID_PREFIX + "comments hit")).isPositive();
        assertThat(readiness.routeLookupsWhenReady.get(WarmUpMirrors.ID_PREFIX + "comments miss")).isPositive();
    }

    @Test
    void reachesNoRealBackendAndWritesOnlyUnderItsReservedPrefix() throws Exception {
        assertThat(backend.totalCalls()).isZero();
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            assertThat(raw.keys()).anyMatch(key -> key.startsWith(WarmUpRoutes.KEY_PREFIX + WarmUpRoutes.HIT))
                .anyMatch(key -> key.equals(WarmUpRoutes.KEY_PREFIX + "as::/api/v1/comments/1"))
                .allMatch(key -> key.startsWith(WarmUpRoutes.KEY_PREFIX));
            // Besides the hit route's item, the misses stored items (and locks) of their
            // own.
            assertThat(raw.stat("total_items")).isGreaterThan(2);
        }
    }

    @Test
    void leavesNoRouteBehind() {
        assertThat(routes.getRoutes().map(Route::getId).collectList().block()).isNotEmpty()
            .noneMatch(id -> id.startsWith(WarmUpRoutes.ID_PREFIX));
        client.get()
            .uri(WarmUpRoutes.PATHS.get(0))
            .header(WarmUpRoutes.TOKEN_HEADER, "any")
            .exchange()
            .expectStatus()
            .isNotFound();
    }

}
