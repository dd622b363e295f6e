package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A hit carries a strong ETag of its bytes and answers a matching If-None-Match with 304
 * and no body (RFC 9110 13), without the backend; a stored miss carries the ETag its
 * later hits will carry.
 */
class ConditionalRequestsTests extends CacheIntegrationTest {

    static final String PATH = "/api/v1/comments/1";

    @Test
    void givesAHitAStrongETagOfItsBytes() throws Exception {
        raw.set(PATH, 0, 0, bytes("{\"a\":1}"));
        raw.set("/api/v1/comments/2", 0, 0, bytes("{\"a\":2}"));

        String first = etagOf(PATH);
        String again = etagOf(PATH);
        String other = etagOf("/api/v1/comments/2");

        assertThat(first).matches("\"[A-Za-z0-9_-]+\"").isEqualTo(again).isNotEqualTo(other);
    }

    @ParameterizedTest
    @ValueSource(strings = { "%s", "W/%s", "\"other\", %s", "*" })
    void answersAMatchingIfNoneMatchOnAHitWithNotModifiedAndNoBody(String ifNoneMatch) throws Exception {
        raw.set(PATH, 0, 0, bytes("{\"a\":1}"));
        String etag = etagOf(PATH);

        for (var request : List.of(client.get(), client.head())) {
            var headers = request.uri(PATH)
                .header("If-None-Match", ifNoneMatch.formatted(etag))
                .exchange()
                .expectStatus()
                .isNotModified()
                .expectHeader()
                .valueEquals("ETag", etag)
                .expectHeader()
                .valueEquals("X-Cache", "HIT")
                .expectBody()
                .isEmpty()
                .getResponseHeaders();
            assertThat(CacheStatusMember.last(headers.get("Cache-Status")).parameters()).containsKey("hit");
        }
        assertThat(backend.totalCalls()).isZero();
    }

    // RFC 9110 15.4.5: a 304 carries the Date its 200 would.
    @Test
    void datesANotModifiedAnswer() throws Exception {
        raw.set(PATH, 0, 0, bytes("{\"a\":1}"));
        String etag = etagOf(PATH);

        client.get()
            .uri(PATH)
            .header("If-None-Match", etag)
            .exchange()
            .expectStatus()
            .isNotModified()
            .expectHeader()
            .exists("Date");
    }

    @Test
    void answersAnIfNoneMatchThatDoesNotMatchWithTheWholeHit() throws Exception {
        raw.set(PATH, 0, 0, bytes("{\"a\":1}"));

        client.get()
            .uri(PATH)
            .header("If-None-Match", "\"stale\"")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .isEqualTo("{\"a\":1}");
    }

    @Test
    void givesAStoredMissTheETagItsLaterHitsCarry() throws Exception {
        backend.reply(PATH, Reply.json("{\"id\":1}", "public, max-age=60"));

        String onMiss = client.get()
            .uri(PATH)
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .returnResult(byte[].class)
            .getResponseHeaders()
            .getETag();
        awaitStored(PATH);
        String onHit = etagOf(PATH);

        assertThat(onMiss).isNotNull().isEqualTo(onHit);
        assertThat(backend.calls(PATH)).isEqualTo(1);
    }

    @Test
    void keepsTheBackendsOwnETagOnAMiss() {
        backend.reply(PATH, Reply.json("{}", "public, max-age=60").withHeader("ETag", "\"v7\""));

        client.get().uri(PATH).exchange().expectHeader().valueEquals("ETag", "\"v7\"");
    }

    private String etagOf(String path) {
        return client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .returnResult(byte[].class)
            .getResponseHeaders()
            .getETag();
    }

}
