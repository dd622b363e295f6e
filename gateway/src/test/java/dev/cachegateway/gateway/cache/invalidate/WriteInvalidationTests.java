package dev.cachegateway.gateway.cache.invalidate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpMethod;

/**
 * RFC 9111 4.4 through the gateway, against a real memcached: a write that succeeds
 * deletes the items of what it changed before its answer leaves, so the checks need no
 * wait.
 */
class WriteInvalidationTests extends CacheIntegrationTest {

    private static final byte[] OLD = "{\"old\":true}".getBytes(StandardCharsets.UTF_8);

    @Test
    void deletesTheTargetsItemBeforeASuccessfulWriteIsAnswered() throws Exception {
        raw.set("/api/v1/comments/5", 0, 0, OLD);
        backend.reply("/api/v1/comments/5", Reply.json("{\"saved\":true}", "no-store"));

        client.method(HttpMethod.PUT).uri("/api/v1/comments/5").bodyValue("{}").exchange().expectStatus().isOk();

        assertThat(raw.get("/api/v1/comments/5")).isNull();
    }

    @Test
    void keepsTheItemWhenTheWriteFails() throws Exception {
        raw.set("/api/v1/comments/5", 0, 0, OLD);
        backend.reply("/api/v1/comments/5", Reply.json("{\"error\":true}", "no-store").withStatus(500));

        client.method(HttpMethod.PUT)
            .uri("/api/v1/comments/5")
            .bodyValue("{}")
            .exchange()
            .expectStatus()
            .isEqualTo(500);

        assertThat(raw.get("/api/v1/comments/5")).isNotNull();
    }

    @Test
    void deletesTheItemOfASameOriginLocationAndKeepsAnotherOrigins() throws Exception {
        raw.set("/api/v1/comments", 0, 0, OLD);
        raw.set("/api/v1/comments/6", 0, 0, OLD);
        raw.set("/api/v1/comments/7", 0, 0, OLD);
        backend.reply("/api/v1/comments",
                Reply.json("{}", "no-store")
                    .withStatus(201)
                    .withHeader("Location", "/api/v1/comments/6")
                    .withHeader("Content-Location", "http://elsewhere.example/api/v1/comments/7"));

        client.post().uri("/api/v1/comments").bodyValue("{}").exchange().expectStatus().isCreated();

        assertThat(raw.get("/api/v1/comments")).isNull();
        assertThat(raw.get("/api/v1/comments/6")).isNull();
        assertThat(raw.get("/api/v1/comments/7")).isNotNull();
    }

    @Test
    void invalidatesAnAuthenticatedDeleteToo() throws Exception {
        raw.set("/api/v1/comments/8", 0, 0, OLD);
        backend.reply("/api/v1/comments/8", Reply.json("{}", "no-store").withStatus(204).withBody(new byte[0]));

        client.delete()
            .uri("/api/v1/comments/8")
            .header("Authorization", "Bearer x")
            .exchange()
            .expectStatus()
            .isNoContent()
            .expectHeader()
            .valueEquals("X-Cache", "BYPASS");

        assertThat(raw.get("/api/v1/comments/8")).isNull();
    }

    @Test
    void invalidatesAfterAMethodItDoesNotKnowToBeSafe() throws Exception {
        raw.set("/api/v1/comments/10", 0, 0, OLD);
        backend.reply("/api/v1/comments/10", Reply.json("{}", "no-store"));

        client.method(HttpMethod.valueOf("M-SEARCH")).uri("/api/v1/comments/10").exchange().expectStatus().isOk();

        assertThat(raw.get("/api/v1/comments/10")).isNull();
    }

    @Test
    void leavesItemsAloneOnAReadAndOnARouteWithoutTheCache() throws Exception {
        raw.set("/api/v1/comments/9", 0, 0, OLD);
        raw.set("/api/v1/comments/9/no_cache", 0, 0, OLD);

        client.get().uri("/api/v1/comments/9").exchange().expectHeader().valueEquals("X-Cache", "HIT");
        client.post().uri("/api/v1/comments/9/no_cache").bodyValue("{}").exchange().expectStatus().isOk();

        assertThat(raw.get("/api/v1/comments/9")).isNotNull();
        assertThat(raw.get("/api/v1/comments/9/no_cache")).isNotNull();
    }

}
