package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;

/**
 * Two gateways in front of one memcached: a cold key reaches the backend once for both,
 * through a lock item in memcached, and a lock left by a gateway that died holds requests
 * up no longer than the lock timeout.
 */
class ReplicaCoalescingTests {

    static final int CONCURRENT = 50;

    static final GatewayPair pair = GatewayPair.shared();

    static final RecordingBackend backend = pair.backend();

    static final ConfigurableApplicationContext first = pair.first();

    static final ConfigurableApplicationContext second = pair.second();

    static final ConcurrentGets gets = new ConcurrentGets();

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        pair.reset();
    }

    @Test
    void sendsOneBackendCallForFiftyConcurrentMissesSpreadOverTwoGateways() {
        String path = "/api/v1/comments/1";
        backend.reply(path, Reply.json("{\"id\":1}", "public, max-age=60").after(Duration.ofMillis(300)));

        List<ResponseEntity<byte[]>> answers = gets.getAll(CONCURRENT, i -> uri(i % 2 == 0 ? first : second, path));

        assertThat(backend.calls(path)).isEqualTo(1);
        assertThat(answers).hasSize(CONCURRENT).allSatisfy(answer -> {
            assertThat(answer.getStatusCode().value()).isEqualTo(200);
            assertThat(answer.getBody()).isEqualTo("{\"id\":1}".getBytes());
        });
        assertThat(answers).extracting(answer -> answer.getHeaders().getFirst("X-Cache"))
            .containsOnlyOnce("MISS")
            .isSubsetOf("MISS", "COALESCED", "HIT");
    }

    @Test
    void sendsOneBackendCallForTwentyConcurrentRequestsForASecondVariantSpreadOverTwoGateways() {
        String path = "/api/v1/whole/comments/7";
        backend.reply("/api/v1/comments/7",
                Reply.json("{\"id\":7}", "public, max-age=60")
                    .withHeader("Vary", "Accept-Language")
                    .after(Duration.ofMillis(300)));
        gets.getAll(1, i -> uri(first, path), "Accept-Language", "en");
        await().atMost(Duration.ofSeconds(10))
            .until(() -> "HIT".equals(gets.getAll(1, i -> uri(second, path), "Accept-Language", "en")
                .get(0)
                .getHeaders()
                .getFirst("X-Cache")));

        List<ResponseEntity<byte[]>> answers = gets.getAll(20, i -> uri(i % 2 == 0 ? first : second, path),
                "Accept-Language", "fr");

        assertThat(backend.calls("/api/v1/comments/7")).as("one call for each variant").isEqualTo(2);
        assertThat(answers).extracting(answer -> answer.getHeaders().getFirst("X-Cache"))
            .containsOnlyOnce("MISS")
            .isSubsetOf("MISS", "COALESCED", "HIT");
    }

    @Test
    void asksTheBackendOnceTheLockTimeoutPassesWhenTheLockHolderDied() throws Exception {
        String path = "/api/v1/comments/2";
        try (MemcachedTextClient raw = MemcachedContainer.textClient(pair.memcached())) {
            // As a gateway would leave it had it died after taking the lock.
            raw.set(path + LockKey.SUFFIX, 0, 60, "locked".getBytes());
        }

        ResponseEntity<byte[]> answer = get(first, path).block(Duration.ofSeconds(10));

        assertThat(answer.getStatusCode().value()).isEqualTo(200);
        assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("MISS");
        assertThat(CacheStatusMember.last(answer.getHeaders().get("Cache-Status")).parameters())
            .containsEntry("collapsed", false);
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    private static Mono<ResponseEntity<byte[]>> get(ConfigurableApplicationContext gateway, String path) {
        return gets.get(uri(gateway, path));
    }

    private static String uri(ConfigurableApplicationContext gateway, String path) {
        return GatewayReplicas.uri(gateway, path);
    }

}
