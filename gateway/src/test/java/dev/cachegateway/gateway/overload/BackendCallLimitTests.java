package dev.cachegateway.gateway.overload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.cache.policy.StaleWindows;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.test.context.TestPropertySource;

/**
 * Two backend calls at a time on the comments route, one on the narrow route: past that,
 * a stale item where there is one, else a 503, and hits are served as ever.
 */
@TestPropertySource(properties = "memcached.overload.max-concurrent-backend-calls=2")
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class BackendCallLimitTests extends CacheIntegrationTest {

    private static final String OLD = "{\"old\":true}";

    @Autowired
    MeterRegistry meters;

    private HeldBackend held;

    @AfterEach
    void releaseTheBackend() {
        if (held != null) {
            held.close();
        }
    }

    @Test
    void turnsAwayAThirdConcurrentMissWithA503AndTheCacheHeaders() {
        holdTwoMisses();

        String path = HeldBackend.freshPath("");
        client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isEqualTo(503)
            .expectHeader()
            .valueEquals("Retry-After", "1")
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo(503)
            .jsonPath("$.error")
            .isEqualTo("Service Unavailable");

        assertThat(backend.calls(path)).isZero();
        assertThat(
                meters.get("gateway.overload.rejected").tag("limit", "max-concurrent-backend-calls").counter().count())
            .isEqualTo(1);
    }

    @Test
    void answersAStaleItemInsteadInsideItsStaleIfErrorWindow() throws Exception {
        String path = HeldBackend.freshPath("");
        raw.set(path, StaleFlags.encode(new StaleWindows(0, 60)), 30, OLD.getBytes(StandardCharsets.UTF_8));
        holdTwoMisses();

        client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "STALE")
            .expectHeader()
            .doesNotExist("Retry-After")
            .expectBody(String.class)
            .isEqualTo(OLD);
        assertThat(backend.calls(path)).isZero();
    }

    @Test
    void servesHitsWhileTheBackendIsAtItsLimit() throws Exception {
        String path = HeldBackend.freshPath("");
        raw.set(path, 0, 60, bytes("{\"id\":905}"));
        holdTwoMisses();

        client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo("{\"id\":905}");
    }

    @Test
    void limitsRoutesWithoutTheCacheToo() {
        holdTwo("/no_cache");

        client.get()
            .uri(HeldBackend.freshPath("/no_cache"))
            .exchange()
            .expectStatus()
            .isEqualTo(503)
            .expectHeader()
            .valueEquals("Retry-After", "1")
            .expectHeader()
            .doesNotExist("X-Cache");
    }

    @Test
    void keepsToARoutesOwnLimitFromItsMetadata() {
        held = new HeldBackend(backend, port);
        String path = "/narrow" + HeldBackend.freshPath("");
        held.hold(path);
        await("the call at the backend").atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);

        client.get().uri("/narrow" + HeldBackend.freshPath("")).exchange().expectStatus().isEqualTo(503);
        // Another route's calls are its own.
        client.get().uri(HeldBackend.freshPath("")).exchange().expectStatus().isOk();
    }

    @Test
    void callsTheBackendAgainOnceACallEnds() {
        holdTwoMisses();
        assertThat(held.release()).allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(200));

        client.get()
            .uri(HeldBackend.freshPath(""))
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");
    }

    private void holdTwoMisses() {
        holdTwo("");
    }

    private void holdTwo(String suffix) {
        held = new HeldBackend(backend, port);
        String first = HeldBackend.freshPath(suffix);
        String second = HeldBackend.freshPath(suffix);
        held.hold(first);
        held.hold(second);
        await("both calls at the backend").atMost(Duration.ofSeconds(10))
            .until(() -> backend.calls(first) == 1 && backend.calls(second) == 1);
    }

}
