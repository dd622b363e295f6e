package dev.cachegateway.gateway.warmup;

import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.junit.jupiter.api.Test;

import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A gateway whose start-up has used up the time it has to say ready in: it skips the
 * warm-up, so readiness is not put off further.
 */
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "memcached.warm-up.duration=5s", "memcached.warm-up.ready-within=1ms" })
class WarmUpBoundTests extends WarmUpIntegrationTest {

    @Test
    void skipsTheWarmUpOnceTheStartHasTakenTheTimeToReady() throws Exception {
        assertThat(readiness.lookupsWhenReady.values()).allMatch(count -> count == 0);
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            assertThat(raw.keys()).noneMatch(key -> key.startsWith(WarmUpRoutes.KEY_PREFIX));
        }
    }

}
