package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.stream.IntStream;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.PurgeToken;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * The near-cache in front of a real memcached: a hit it holds never reaches memcached, an
 * item leaves it with its memcached TTL, a purge clears it, and its byte bound evicts.
 */
@TestPropertySource(properties = { "memcached.cache.near-cache.ttl=1h", "memcached.cache.near-cache.max-entries=100",
        "memcached.cache.near-cache.max-bytes=8KB" })
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class NearCacheTests extends CacheIntegrationTest {

    @Autowired
    NearCache nearCache;

    @LocalManagementPort
    int managementPort;

    @Test
    void answersARepeatedHitWithoutAskingMemcached() throws Exception {
        raw.set("/api/v1/comments/near-1", 0, 0, bytes("{\"near\":1}"));
        expectHit("/api/v1/comments/near-1", "{\"near\":1}");
        long lookupsBefore = raw.stat("cmd_get");

        for (int i = 0; i < 5; i++) {
            expectHit("/api/v1/comments/near-1", "{\"near\":1}");
        }

        assertThat(raw.stat("cmd_get")).isEqualTo(lookupsBefore);
    }

    @Test
    void keepsAnItemItStoresNoLongerThanMemcachedDoes() {
        String path = "/api/v1/comments/near-short";
        // Two seconds: memcached's clock ticks once a second, so an item stored for one
        // may be gone before it is seen.
        backend.reply(path, Reply.json("{\"short\":true}", "public, max-age=2"));
        client.get().uri(path).exchange().expectHeader().valueEquals("X-Cache", "MISS");
        awaitStored(path);

        // The near-cache's own TTL is an hour; memcached's, two seconds: the item goes
        // with the shorter.
        Awaitility.await("the item's memcached TTL to pass")
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(200))
            .until(() -> "MISS".equals(client.get()
                .uri(path)
                .exchange()
                .returnResult(String.class)
                .getResponseHeaders()
                .getFirst("X-Cache")));
    }

    @Test
    void forgetsAnItemPurgedThroughTheEndpoint() throws Exception {
        raw.set("/api/v1/comments/near-purged", 0, 0, bytes("{\"old\":1}"));
        expectHit("/api/v1/comments/near-purged", "{\"old\":1}");

        WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + managementPort)
            .build()
            .delete()
            .uri("/actuator/memcached/api/v1/comments/near-purged")
            .header("Authorization", PurgeToken.BEARER)
            .exchange()
            .expectStatus()
            .isOk();
        raw.set("/api/v1/comments/near-purged", 0, 0, bytes("{\"new\":1}"));

        expectHit("/api/v1/comments/near-purged", "{\"new\":1}");
    }

    @Test
    void evictsItemsBeyondItsByteBound() throws Exception {
        String value = "x".repeat(3000);
        for (int i = 0; i < 5; i++) {
            raw.set("/api/v1/comments/near-big-" + i, 0, 0, bytes(value));
            expectHit("/api/v1/comments/near-big-" + i, value);
        }

        // 8 KB hold two items of 3,000 bytes; the rest are evicted, and their next hits
        // come from memcached.
        Awaitility.await("eviction down to the byte bound")
            .atMost(Duration.ofSeconds(5))
            .until(() -> bigItemsHeld() <= 2);
        long lookupsBefore = raw.stat("cmd_get");
        for (int i = 0; i < 5; i++) {
            expectHit("/api/v1/comments/near-big-" + i, value);
        }
        assertThat(raw.stat("cmd_get") - lookupsBefore).isGreaterThanOrEqualTo(3);
    }

    private long bigItemsHeld() {
        nearCache.size();
        return IntStream.range(0, 5).filter(i -> nearCache.get("/api/v1/comments/near-big-" + i) != null).count();
    }

    private void expectHit(String path, String body) {
        client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo(body);
    }

}
