package dev.cachegateway.gateway.warmup;

import dev.cachegateway.gateway.support.CacheIntegrationTest;
import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
import dev.cachegateway.gateway.support.RecordingBackend;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway whose start-up has used up the time it has to say ready in: it skips the warm-up, so readiness is not
 * put off further.
 */
@Testcontainers
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "gateway.warm-up.duration=5s", "gateway.warm-up.ready-within=1ms" })
@DirtiesContext
@Import(WarmUpTests.ReadinessWatch.class)
class WarmUpBoundTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        CacheIntegrationTest.gatewayProperties(registry, memcached, backend);
    }

    @Autowired
    WarmUpTests.ReadinessWatch readiness;

    @Test
    void skipsTheWarmUpOnceTheStartHasTakenTheTimeToReady() throws Exception {
        assertThat(readiness.lookupsWhenReady.values()).allMatch(count -> count == 0);
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            assertThat(raw.keys()).noneMatch(key -> key.startsWith(WarmUpRoutes.KEY_PREFIX));
        }
    }
}
