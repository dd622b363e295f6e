package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;

/**
 * Hits of the routes in application.yml are answered before the gateway routes them.
 * {@link SyncPredicates} reads Spring Cloud Gateway's predicates by reflection; if an
 * upgrade renames what it reads, hits still work, but through routing, and this test is
 * what says so: a global filter sees every request that is routed.
 */
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
@Import(EarlyHitFilterTests.RoutedRequests.class)
class EarlyHitFilterTests extends CacheIntegrationTest {

    private static final byte[] COMMENT = "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment to see how this thing works.\"}"
        .getBytes(StandardCharsets.UTF_8);

    @Autowired
    private AtomicInteger routedRequests;

    @BeforeEach
    void countFromZero() {
        routedRequests.set(0);
    }

    @Test
    void answersAHitOfAYamlRouteBeforeRouting() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, COMMENT);

        // Routes load after startup, and so do the early filter's candidates.
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            routedRequests.set(0);
            client.get()
                .uri("/api/v1/comments/1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Cache", "HIT")
                .expectBody(byte[].class)
                .isEqualTo(COMMENT);
            assertThat(routedRequests.get()).as("requests that went through routing").isZero();
        });
        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void routesAMissOfTheSameRoute() {
        client.get()
            .uri("/api/v1/comments/2")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");

        assertThat(routedRequests.get()).isEqualTo(1);
    }

    @Test
    void routesARouteWithoutTheCache() {
        client.get()
            .uri("/api/v1/comments/1/no_cache")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .doesNotExist("X-Cache");

        assertThat(routedRequests.get()).isEqualTo(1);
    }

    @TestConfiguration(proxyBeanMethods = false)
    static class RoutedRequests {

        @Bean
        AtomicInteger routedRequests() {
            return new AtomicInteger();
        }

        @Bean
        GlobalFilter countsRoutedRequests(AtomicInteger routedRequests) {
            return (exchange, chain) -> {
                routedRequests.incrementAndGet();
                return chain.filter(exchange);
            };
        }

    }

}
