package dev.cachegateway.gateway.cache.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.PurgeToken;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.StatusAssertions;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Purges by tag through one of two gateways on one memcached, with the tags that the
 * backend names in {@code Surrogate-Key}. Each test has tags of its own: the pair's
 * memcached is emptied between tests, and the gateways may still know a tag's old
 * generation for a moment.
 */
class TagPurgeTests {

    static final GatewayPair pair = GatewayPair.shared();

    static final RecordingBackend backend = pair.backend();

    static final ConfigurableApplicationContext first = pair.first();

    static final ConfigurableApplicationContext second = pair.second();

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
    void aHardPurgeMissesTheTagsItemsOnBothGatewaysAndHitsTheOthers() {
        tagged(61, "public, max-age=60", "purged-61 user-61");
        tagged(62, "public, max-age=60", "purged-61");
        tagged(63, "public, max-age=60", "kept-63");
        for (int id = 61; id <= 63; id++) {
            assertThat(get(first, id)).isEqualTo("MISS {\"v\":1}");
            raw.await("http:" + whole(id));
            assertThat(get(second, id)).isEqualTo("HIT {\"v\":1}");
        }

        purge(first, "?tag=purged-61").isOk().expectBody().jsonPath("$.purge").isEqualTo("hard");

        assertThat(get(first, 61)).isEqualTo("MISS {\"v\":2}");
        assertThat(get(first, 63)).isEqualTo("HIT {\"v\":1}");
        await().atMost(Duration.ofSeconds(2))
            .untilAsserted(() -> assertThat(get(second, 62)).isEqualTo("MISS {\"v\":2}"));
        assertThat(get(second, 61)).isEqualTo("HIT {\"v\":2}");
        assertThat(get(second, 63)).isEqualTo("HIT {\"v\":1}");
        assertThat(backend.calls(origin(61))).isEqualTo(2);
        assertThat(backend.calls(origin(62))).isEqualTo(2);
        assertThat(backend.calls(origin(63))).isEqualTo(1);
    }

    @Test
    void aSoftPurgeServesUpdatingAndRefreshesEachItemOnceAcrossBothGateways() {
        String window = "public, max-age=60, stale-while-revalidate=30";
        List<Integer> ids = List.of(64, 65);
        for (int id : ids) {
            backend.replyByCall(origin(id),
                    call -> Reply.json("{\"v\":" + call + "}", window)
                        .withHeader("Surrogate-Key", "softened-64")
                        .after(Duration.ofMillis(call == 1 ? 0 : 800)));
            assertThat(get(first, id)).isEqualTo("MISS {\"v\":1}");
            raw.await("http:" + whole(id));
            assertThat(get(second, id)).isEqualTo("HIT {\"v\":1}");
        }

        purge(second, "?tag=softened-64&soft=true").isOk().expectBody().jsonPath("$.purge").isEqualTo("soft");
        await().atMost(Duration.ofSeconds(2))
            .untilAsserted(() -> assertThat(get(first, 64)).isEqualTo("UPDATING {\"v\":1}"));
        List<ResponseEntity<byte[]>> answers = gets.getAll(8,
                i -> GatewayReplicas.uri(i % 2 == 0 ? first : second, whole(ids.get(i / 4))));

        assertThat(answers).allSatisfy(answer -> assertThat(described(answer)).isEqualTo("UPDATING {\"v\":1}"));
        for (int id : ids) {
            await().atMost(Duration.ofSeconds(10))
                .untilAsserted(() -> assertThat(get(second, id)).isEqualTo("HIT {\"v\":2}"));
            assertThat(get(first, id)).isEqualTo("HIT {\"v\":2}");
            assertThat(backend.calls(origin(id))).as("the first answer, then one refresh").isEqualTo(2);
        }
    }

    // The store's lock says "stored" for a second or two: a purge inside them left every
    // replica that missed to ask the backend on its own.
    @Test
    void aPurgeRightAfterAStoreIsFetchedOnceAcrossBothGateways() throws Exception {
        backend.replyByCall(origin(68),
                call -> Reply.json("{\"v\":" + call + "}", "public, max-age=60")
                    .withHeader("Surrogate-Key", "stored-68")
                    .after(Duration.ofMillis(call == 1 ? 0 : 300)));
        tagged(69, "public, max-age=60", "stored-68");
        for (int id : List.of(68, 69)) {
            assertThat(get(first, id)).isEqualTo("MISS {\"v\":1}");
            raw.await("http:" + whole(id));
        }

        purge(first, "?tag=stored-68").isOk();
        await().atMost(Duration.ofSeconds(2))
            .untilAsserted(() -> assertThat(get(second, 69)).isEqualTo("MISS {\"v\":2}"));
        // As the store of 68 left its lock, a moment before the purge.
        raw.set("http:" + whole(68) + LockKey.SUFFIX, 0, 10, "stored".getBytes(StandardCharsets.US_ASCII));
        List<ResponseEntity<byte[]>> answers = gets.getAll(8,
                i -> GatewayReplicas.uri(i % 2 == 0 ? first : second, whole(68)));

        assertThat(answers).allSatisfy(answer -> assertThat(described(answer)).endsWith("{\"v\":2}"));
        assertThat(backend.calls(origin(68))).as("the first answer, then one after the purge").isEqualTo(2);
    }

    @Test
    void anEvictedGenerationCountsAsPurgedOnBothGateways() throws Exception {
        tagged(66, "public, max-age=60", "evicted-66");
        assertThat(get(first, 66)).isEqualTo("MISS {\"v\":1}");
        raw.await("http:" + whole(66));
        assertThat(get(second, 66)).isEqualTo("HIT {\"v\":1}");

        assertThat(raw.delete("%tag:evicted-66")).isTrue();

        await().atMost(Duration.ofSeconds(3))
            .untilAsserted(() -> assertThat(get(second, 66)).isEqualTo("MISS {\"v\":2}"));
        await().atMost(Duration.ofSeconds(3))
            .untilAsserted(() -> assertThat(get(first, 66)).isEqualTo("HIT {\"v\":2}"));
        assertThat(backend.calls(origin(66))).isEqualTo(2);
    }

    @Test
    void clientsGetNeitherTheTagsNorTheirGenerations() {
        tagged(67, "public, max-age=60", "hidden-67");
        ResponseEntity<byte[]> miss = gets.getAll(1, i -> GatewayReplicas.uri(first, whole(67))).get(0);
        raw.await("http:" + whole(67));
        ResponseEntity<byte[]> hit = gets.getAll(1, i -> GatewayReplicas.uri(second, whole(67))).get(0);

        assertThat(List.of(miss, hit)).allSatisfy(answer -> {
            assertThat(answer.getHeaders().containsHeader("Surrogate-Key")).isFalse();
            assertThat(answer.getHeaders().containsHeader(ItemTags.HEADER)).isFalse();
        });
        assertThat(described(hit)).isEqualTo("HIT {\"v\":1}");
    }

    @Test
    void refusesATagPurgeWithoutTheToken() {
        WebTestClient.bindToServer()
            .baseUrl(GatewayReplicas.managementUri(first))
            .build()
            .delete()
            .uri("/actuator/memcached?tag=comments")
            .exchange()
            .expectStatus()
            .isUnauthorized();
    }

    private static void tagged(int id, String cacheControl, String tags) {
        backend.replyByCall(origin(id),
                call -> Reply.json("{\"v\":" + call + "}", cacheControl).withHeader("Surrogate-Key", tags));
    }

    private static StatusAssertions purge(ConfigurableApplicationContext gateway, String query) {
        return WebTestClient.bindToServer()
            .baseUrl(GatewayReplicas.managementUri(gateway))
            .responseTimeout(Duration.ofSeconds(30))
            .build()
            .delete()
            .uri("/actuator/memcached" + query)
            .header("Authorization", PurgeToken.BEARER)
            .exchange()
            .expectStatus();
    }

    // "X-Cache body" of one GET.
    private static String get(ConfigurableApplicationContext gateway, int id) {
        return described(gets.getAll(1, i -> GatewayReplicas.uri(gateway, whole(id))).get(0));
    }

    private static String described(ResponseEntity<byte[]> answer) {
        return answer.getHeaders().getFirst("X-Cache") + " " + new String(answer.getBody(), StandardCharsets.UTF_8);
    }

    private static String whole(int id) {
        return "/api/v1/whole/comments/" + id;
    }

    private static String origin(int id) {
        return "/api/v1/comments/" + id;
    }

}
