package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.HoldingProxy;
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

    // Found by the history checker (seed 3047651732628590409): a replica that waited for
    // a lock that went without an item, then lost the race for the free lock to another
    // replica, waited for that one, and when it too gave the lock back without an item,
    // asked the backend without a lock. Any replica's next miss then took the free lock
    // and asked again.
    @Test
    void aReplicaThatWaitedInVainTwiceTakesTheLockItselfBeforeItAsksTheBackend() throws Exception {
        String path = "/api/v1/comments/3";
        String lockKey = path + LockKey.SUFFIX;
        backend.reply(path, Reply.json("{\"id\":3}", "public, max-age=60").after(Duration.ofMillis(400)));
        try (MemcachedTextClient raw = MemcachedContainer.textClient(pair.memcached());
                HoldingProxy network = new HoldingProxy(pair.memcached().getHost(),
                        pair.memcached().getMappedPort(MemcachedContainer.PORT))) {
            ConfigurableApplicationContext third = GatewayReplicas.start("127.0.0.1:" + network.port(), backend.uri(),
                    "--memcached.cache.lock-timeout=" + GatewayPair.LOCK_TIMEOUT.toMillis() + "ms");
            try (third) {
                raw.set(lockKey, 0, 60, "locked elsewhere".getBytes());
                // Its first claim finds the lock taken; its second, once the lock is
                // gone,
                // is held on its way to memcached while another replica takes the lock.
                // A claim is "ms <lock key> ... ME" where memcached has meta commands,
                // "add <lock key> ..." elsewhere; the lock's reads end at the key.
                network.holdAt(lockKey + " ", 2);
                CompletableFuture<ResponseEntity<byte[]>> waiting = get(third, path).toFuture();
                await().atMost(Duration.ofSeconds(5)).until(() -> network.triggersLeft() == 1);
                raw.delete(lockKey);
                await().atMost(Duration.ofSeconds(5)).until(() -> network.held() > 0);
                raw.set(lockKey, 0, 60, "locked by another".getBytes());
                network.release();
                // That replica gives the lock back without an item, as one whose answer a
                // write overtook does.
                await().pollDelay(Duration.ofMillis(200)).atMost(Duration.ofSeconds(1)).until(() -> true);
                raw.delete(lockKey);

                await().atMost(Duration.ofSeconds(5))
                    .pollInterval(Duration.ofMillis(5))
                    .until(() -> backend.calls(path) == 1);
                ResponseEntity<byte[]> later = get(second, path).block(Duration.ofSeconds(10));

                assertThat(waiting.get(10, TimeUnit.SECONDS).getStatusCode().value()).isEqualTo(200);
                assertThat(later.getStatusCode().value()).isEqualTo(200);
                assertThat(backend.calls(path)).as("one call: the other replica waits for the one that asks")
                    .isEqualTo(1);
            }
        }
    }

    private static Mono<ResponseEntity<byte[]>> get(ConfigurableApplicationContext gateway, String path) {
        return gets.get(uri(gateway, path));
    }

    private static String uri(ConfigurableApplicationContext gateway, String path) {
        return GatewayReplicas.uri(gateway, path);
    }

}
