package dev.cachegateway.gateway.cache.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

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
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient.BodyContentSpec;

/**
 * Soft purges through one of two gateways on one memcached: the item turns stale, not
 * gone, and the next requests on both gateways cost one backend call between them.
 */
class SoftPurgeTests {

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
    void servesTheItemAsUpdatingOnBothGatewaysWhileOneRefreshesIt() {
        String path = "/api/v1/comments/51";
        backend.replyByCall(path,
                call -> Reply.json("{\"v\":" + call + "}", "public, max-age=60, stale-while-revalidate=30")
                    .after(Duration.ofMillis(call == 1 ? 0 : 500)));
        assertThat(xCache(gets.getAll(1, i -> uri(first, path)))).containsExactly("MISS");
        raw.await(path);

        purge(first, "/actuator/memcached" + path + "?soft=true").jsonPath("$.softened").isEqualTo(true);
        List<ResponseEntity<byte[]>> answers = gets.getAll(10, i -> uri(i % 2 == 0 ? first : second, path));

        assertThat(xCache(answers)).containsOnly("UPDATING");
        assertThat(answers).allSatisfy(answer -> assertThat(body(answer)).isEqualTo("{\"v\":1}"));
        await().atMost(Duration.ofSeconds(10))
            .until(() -> raw.get(path) != null
                    && new String(raw.get(path).value(), StandardCharsets.UTF_8).equals("{\"v\":2}"));
        assertThat(backend.calls(path)).as("the first answer, then one refresh").isEqualTo(2);
        assertThat(xCache(gets.getAll(1, i -> uri(second, path)))).containsExactly("HIT");
    }

    @Test
    void asksTheBackendOnceForBothGatewaysWhenTheItemHasNoStaleWindow() {
        String path = "/api/v1/comments/52";
        backend.replyByCall(path, call -> Reply.json("{\"v\":" + call + "}", "public, max-age=60")
            .after(Duration.ofMillis(call == 1 ? 0 : 300)));
        gets.getAll(1, i -> uri(first, path));
        raw.await(path);

        purge(second, "/actuator/memcached?key=" + path + "&soft=true").jsonPath("$.softened").isEqualTo(true);
        List<ResponseEntity<byte[]>> answers = gets.getAll(10, i -> uri(i % 2 == 0 ? first : second, path));

        assertThat(answers).allSatisfy(answer -> assertThat(body(answer)).isEqualTo("{\"v\":2}"));
        assertThat(backend.calls(path)).as("the first answer, then one for everyone").isEqualTo(2);
    }

    // The other variants have keys of their own that a purge cannot name.
    @Test
    void purgesAnAnswerThatVariesHardAndSaysSo() throws Exception {
        backend.reply("/api/v1/comments/53",
                Reply.json("{\"id\":53}", "public, max-age=60").withHeader("Vary", "Accept-Language"));
        gets.getAll(1, i -> uri(first, "/api/v1/whole/comments/53"), "Accept-Language", "en");
        raw.await("http:/api/v1/whole/comments/53");

        purge(first, "/actuator/memcached/api/v1/whole/comments/53?soft=true").jsonPath("$.purged[0]")
            .isEqualTo("http:/api/v1/whole/comments/53");

        assertThat(raw.get("http:/api/v1/whole/comments/53")).isNull();
    }

    private static BodyContentSpec purge(ConfigurableApplicationContext gateway, String uri) {
        return WebTestClient.bindToServer()
            .baseUrl(GatewayReplicas.managementUri(gateway))
            .responseTimeout(Duration.ofSeconds(30))
            .build()
            .delete()
            .uri(uri)
            .header("Authorization", PurgeToken.BEARER)
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody();
    }

    private static List<String> xCache(List<ResponseEntity<byte[]>> answers) {
        return answers.stream().map(answer -> answer.getHeaders().getFirst("X-Cache")).toList();
    }

    private static String body(ResponseEntity<byte[]> answer) {
        return new String(answer.getBody(), StandardCharsets.UTF_8);
    }

    private static String uri(ConfigurableApplicationContext gateway, String path) {
        return GatewayReplicas.uri(gateway, path);
    }

}
