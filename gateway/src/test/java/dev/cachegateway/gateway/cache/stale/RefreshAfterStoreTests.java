package dev.cachegateway.gateway.cache.stale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.cache.policy.StaleWindows;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.ResponseEntity;

/**
 * A stale hit whose lookup read the old item just before a refresh's new one landed: the
 * refresh's lock says "stored" for a moment after the store, and a stale hit that finds
 * that word starts no second refresh. Without it, such a hit, on any replica, took the
 * freed lock and asked the backend again for an answer memcached already held.
 */
class RefreshAfterStoreTests {

    static final String OLD = "{\"old\":true}";

    static final GatewayPair pair = GatewayPair.shared();

    static final RecordingBackend backend = pair.backend();

    static final ConcurrentGets gets = new ConcurrentGets();

    MemcachedTextClient raw;

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        pair.reset();
        raw = MemcachedContainer.textClient(pair.memcached());
    }

    @AfterEach
    void closeRawClient() throws Exception {
        raw.close();
    }

    @Test
    void aStaleHitThatFindsItsLockSayingStoredStartsNoRefresh() throws Exception {
        String path = "/api/v1/comments/refresh-after-store";
        storeStale(path);
        // As a refresh leaves the lock once its new item has landed: this lookup read the
        // item just before.
        raw.set(LockKey.of(path), 0, 2, "stored".getBytes(StandardCharsets.US_ASCII));
        backend.reply(path, Reply.json("{\"new\":true}", "public, max-age=60"));

        ResponseEntity<byte[]> stale = get(path);

        assertThat(stale.getHeaders().getFirst("X-Cache")).isEqualTo("UPDATING");
        // The refresh, had one started, would have asked the backend before its lock
        // expired; none did.
        await().during(Duration.ofMillis(2500)).atMost(Duration.ofSeconds(5)).until(() -> backend.calls(path) == 0);
    }

    @Test
    void aRefreshThatStoredLeavesItsLockSayingSo() throws Exception {
        String path = "/api/v1/comments/refresh-says-stored";
        storeStale(path);
        backend.reply(path, Reply.json("{\"new\":true}", "public, max-age=60"));

        assertThat(get(path).getHeaders().getFirst("X-Cache")).isEqualTo("UPDATING");

        // Polled from the store on: the word lives a second or two.
        await().atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> "stored".equals(word(raw.get(LockKey.of(path)))));
        assertThat(raw.get(path).value()).asString(StandardCharsets.UTF_8).isEqualTo("{\"new\":true}");
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    // As an earlier store leaves an answer that may be answered stale for 30 s, 5 s into
    // that window.
    private void storeStale(String path) throws Exception {
        raw.set(path, StaleFlags.encode(new StaleWindows(30, 0)), 25, OLD.getBytes(StandardCharsets.UTF_8));
    }

    private static String word(MemcachedTextClient.Item lock) {
        return lock == null ? "" : new String(lock.value(), StandardCharsets.US_ASCII);
    }

    private static ResponseEntity<byte[]> get(String path) {
        return gets.get(GatewayReplicas.uri(pair.first(), path)).block(Duration.ofSeconds(10));
    }

}
