package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

import java.util.function.Function;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.HttpHeaders;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Every answer through a cached route says what the cache did in X-Cache and in RFC 9211
 * Cache-Status (read here with an RFC 8941 parser), and the lookups meter counts it under
 * the same X-Cache.
 */
class CacheStatusTests extends CacheIntegrationTest {

    @Autowired
    MeterRegistry meters;

    @Test
    void marksAHit() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes("{}"));

        HttpHeaders headers = headersOf(c -> c.get().uri("/api/v1/comments/1"), "HIT");

        assertThat(member(headers).cache()).isEqualTo("memcached-gateway");
        assertThat(member(headers).parameters()).containsExactly(entry("hit", true));
    }

    @Test
    void marksAStoredMissAsForwardedForAUriMissAndStored() throws Exception {
        HttpHeaders headers = headersOf(c -> c.get().uri("/api/v1/comments/2"), "MISS");

        assertThat(member(headers).parameters()).containsExactly(entry("fwd", "uri-miss"), entry("stored", true));
        awaitStored("/api/v1/comments/2");
    }

    @Test
    void marksAMissWhoseAnswerMayNotBeStoredAsAMissWithTheReason() {
        backend.reply("/api/v1/comments/3", Reply.json("{}", "private"));
        double misses = lookups("miss");

        HttpHeaders headers = headersOf(c -> c.get().uri("/api/v1/comments/3"), "MISS");

        assertThat(member(headers).parameters()).containsExactly(entry("fwd", "uri-miss"),
                entry("detail", "cache-control"));
        assertThat(lookups("miss")).isEqualTo(misses + 1);
        assertThat(stores("skipped", "cache-control")).isGreaterThanOrEqualTo(1);
    }

    @Test
    void marksAHeadMissAsAMissThatIsNotStored() {
        HttpHeaders headers = headersOf(c -> c.head().uri("/api/v1/comments/4"), "MISS");

        assertThat(member(headers).parameters()).containsExactly(entry("fwd", "uri-miss"), entry("detail", "method"));
    }

    @Test
    void marksEachRequestThatIsNotLookedUpAsABypassWithItsReason() {
        double bypasses = lookups("bypass");

        HttpHeaders post = headersOf(c -> c.post().uri("/api/v1/comments/5"), "BYPASS");
        HttpHeaders authorized = headersOf(c -> c.get().uri("/api/v1/comments/5").header("Authorization", "x"),
                "BYPASS");
        HttpHeaders longKey = headersOf(c -> c.get().uri("/api/v1/comments/" + "9".repeat(240)), "BYPASS");

        assertThat(member(post).parameters()).containsExactly(entry("fwd", "method"));
        assertThat(member(authorized).parameters()).containsExactly(entry("fwd", "request"));
        assertThat(member(longKey).parameters()).containsExactly(entry("fwd", "bypass"));
        assertThat(lookups("bypass")).isEqualTo(bypasses + 3);
    }

    @Test
    void appendsItsMemberAfterTheBackendsOwn() {
        backend.reply("/api/v1/comments/6",
                Reply.json("{}", "max-age=60").withHeader("Cache-Status", "origin-cache; fwd=uri-miss"));

        HttpHeaders headers = headersOf(c -> c.get().uri("/api/v1/comments/6"), "MISS");

        assertThat(CacheStatusMember.all(headers.get("Cache-Status"))).extracting(CacheStatusMember::cache)
            .containsExactly("origin-cache", "memcached-gateway");
    }

    @Test
    void countsEveryRequestOnceUnderTheXCacheItGot() throws Exception {
        raw.set("/api/v1/comments/7", 0, 0, bytes("{}"));
        double hits = lookups("hit");
        double misses = lookups("miss");

        headersOf(c -> c.get().uri("/api/v1/comments/7"), "HIT");
        headersOf(c -> c.get().uri("/api/v1/comments/8"), "MISS");

        assertThat(lookups("hit")).isEqualTo(hits + 1);
        assertThat(lookups("miss")).isEqualTo(misses + 1);
    }

    private HttpHeaders headersOf(Function<WebTestClient, WebTestClient.RequestHeadersSpec<?>> request, String xCache) {
        return request.apply(client)
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", xCache)
            .expectBody()
            .returnResult()
            .getResponseHeaders();
    }

    private static CacheStatusMember member(HttpHeaders headers) {
        return CacheStatusMember.last(headers.get("Cache-Status"));
    }

    private double lookups(String result) {
        // Over every route: each counts its own.
        return meters.get("memcached.cache.lookups")
            .tag("result", result)
            .counters()
            .stream()
            .mapToDouble(Counter::count)
            .sum();
    }

    private double stores(String result, String reason) {
        return meters.get("memcached.cache.stores").tag("result", result).tag("reason", reason).counter().count();
    }

}
