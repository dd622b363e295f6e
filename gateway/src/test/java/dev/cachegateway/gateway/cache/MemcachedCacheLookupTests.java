package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpResponse;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Collections;

import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend;
import org.junit.jupiter.api.Test;

/**
 * The lookup half of the filter, nginx's memcached_pass, against a real memcached and a
 * real HTTP backend.
 */
class MemcachedCacheLookupTests extends CacheIntegrationTest {

    static final String COMMENT = "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment to see how this thing works.\"}";

    @Test
    void servesAHitByteForByteWithoutCallingTheBackend() throws Exception {
        String collection = "[" + String.join(",", Collections.nCopies(25, COMMENT)) + "]";
        raw.set("/api/v1/comments/users/1", 0, 0, bytes(collection));

        client.get()
            .uri("/api/v1/comments/users/1")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .valueEquals("Content-Type", "application/json")
            .expectHeader()
            .contentLength(2176)
            .expectHeader()
            .doesNotExist("Content-Encoding")
            .expectBody(byte[].class)
            .isEqualTo(bytes(collection));

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void servesAKeySetByHandOverTheTextProtocol() throws Exception {
        raw.setLiterally("set /api/v1/comments/7 0 0 " + COMMENT.length() + "\r\n" + COMMENT + "\r\n");

        client.get()
            .uri("/api/v1/comments/7")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .contentLength(86)
            .expectBody(String.class)
            .isEqualTo(COMMENT);

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void answersEachVersionOfAnItemWithItsOwnBytesAndEtag() throws Exception {
        String changed = COMMENT.replace("paul", "anna");
        raw.set("/api/v1/comments/8", 0, 0, bytes(COMMENT));
        String first = client.get()
            .uri("/api/v1/comments/8")
            .exchange()
            .expectStatus()
            .isOk()
            .returnResult(String.class)
            .getResponseHeaders()
            .getETag();

        // Same length, same key: only the bytes tell the versions apart.
        raw.set("/api/v1/comments/8", 0, 0, bytes(changed));

        client.get()
            .uri("/api/v1/comments/8")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .valueEquals("ETag", EntityTags.of(bytes(changed)))
            .expectBody(String.class)
            .isEqualTo(changed);
        assertThat(first).isEqualTo(EntityTags.of(bytes(COMMENT)));
        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void fallsBackToTheBackendOnAMiss() {
        client.get()
            .uri("/api/v1/comments/2")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(String.class)
            .isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/2"));

        assertThat(backend.calls("/api/v1/comments/2")).isEqualTo(1);
    }

    // RFC 9110 6.6.1: a recipient with a clock dates an answer that has none, as nginx
    // dates its hits; the server under the gateway dates nothing by itself.
    @Test
    void datesAHitWithTheTimeItIsAnswered() throws Exception {
        raw.set("/api/v1/comments/9", 0, 0, bytes(COMMENT));
        long before = System.currentTimeMillis() / 1000 * 1000;

        HttpResponse<byte[]> hit = plainGet("/api/v1/comments/9");

        assertThat(hit.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(hit.headers().allValues("Date")).singleElement()
            .satisfies(date -> assertThat(
                    ZonedDateTime.parse(date, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant().toEpochMilli())
                .isBetween(before, System.currentTimeMillis()));
    }

    @Test
    void answersHeadOnAHitWithTheHeadersAndNoBody() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.head()
            .uri("/api/v1/comments/1")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .contentLength(86)
            .expectBody()
            .isEmpty();

        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void marksAnItemGzippedWhenItsFlagsShareABitWithTheRoutesGzipFlag() throws Exception {
        byte[] gzipped = gzip(COMMENT);
        raw.set("/gzip/flagged", 2 | 8, 0, gzipped);
        raw.set("/gzip/plain", 1, 0, bytes("plain"));
        raw.set("/api/v1/comments/3", 2, 0, bytes(COMMENT));

        // A plain JDK client: WebTestClient would decompress the body and drop the header
        // under test.
        HttpResponse<byte[]> flagged = plainGet("/gzip/flagged", "Accept-Encoding", "gzip");
        assertThat(flagged.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(flagged.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(flagged.body()).isEqualTo(gzipped);

        HttpResponse<byte[]> plain = plainGet("/gzip/plain");
        assertThat(plain.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();

        HttpResponse<byte[]> gzipOff = plainGet("/api/v1/comments/3");
        assertThat(gzipOff.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(gzipOff.headers().firstValue("Content-Encoding")).isEmpty();
    }

    @Test
    void looksUpACrLfPathUnderItsEscapedKeySoNoCommandCanBeInjected() throws Exception {
        raw.set("sentinel", 0, 0, bytes("still here"));
        raw.set("/api/v1/comments/x%0D%0Aflush_all", 0, 0, bytes("escaped"));
        long flushesBefore = raw.stat("cmd_flush");

        client.get()
            .uri(URI.create("http://localhost:" + port + "/api/v1/comments/x%0D%0Aflush_all"))
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo("escaped");

        assertThat(raw.get("sentinel")).isNotNull();
        assertThat(raw.stat("cmd_flush")).isEqualTo(flushesBefore);
    }

    @Test
    void bypassesAKeyOver250BytesWithoutAskingMemcached() throws Exception {
        String path = "/api/v1/comments/" + "9".repeat(240);
        long lookupsBefore = raw.stat("cmd_get");

        client.get().uri(path).exchange().expectStatus().isOk().expectHeader().valueEquals("X-Cache", "BYPASS");

        assertThat(raw.stat("cmd_get")).isEqualTo(lookupsBefore);
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void passesARequestWithAuthorizationToTheBackendUntouched() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.get()
            .uri("/api/v1/comments/1")
            .header("Authorization", "Bearer secret")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "BYPASS")
            .expectBody(String.class)
            .isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/1"));

        assertThat(backend.calls("/api/v1/comments/1")).isEqualTo(1);
    }

    @Test
    void passesOtherMethodsToTheBackend() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));

        client.post()
            .uri("/api/v1/comments/1")
            .bodyValue("{}")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "BYPASS");

        assertThat(backend.calls("/api/v1/comments/1")).isEqualTo(1);
    }

    @Test
    void neverLooksUpANoCachePath() throws Exception {
        raw.set("/api/v1/comments/1/no_cache", 0, 0, bytes("stale"));

        client.get()
            .uri("/api/v1/comments/1/no_cache")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .doesNotExist("X-Cache")
            .expectBody(String.class)
            .isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/1/no_cache"));

        assertThat(backend.calls("/api/v1/comments/1/no_cache")).isEqualTo(1);
    }

    @Test
    void ignoresTheQueryStringUnlessTheTemplateNamesIt() throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes(COMMENT));
        raw.set("/args/list?page=2", 0, 0, bytes("page two"));

        client.get().uri("/api/v1/comments/1?utm=x").exchange().expectHeader().valueEquals("X-Cache", "HIT");
        client.get()
            .uri("/args/list?page=2")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo("page two");
        client.get().uri("/args/list?page=3").exchange().expectHeader().valueEquals("X-Cache", "MISS");
    }

    @Test
    void replacesAnXCacheHeaderFromTheBackend() {
        backend.reply("/api/v1/comments/5",
                RecordingBackend.Reply.json("{}", "max-age=60").withHeader("X-Cache", "HIT"));

        client.get().uri("/api/v1/comments/5").exchange().expectHeader().valueEquals("X-Cache", "MISS");
    }

}
