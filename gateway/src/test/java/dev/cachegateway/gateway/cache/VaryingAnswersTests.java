package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;

/**
 * Answers that depend on request headers: a hit is found by its key alone, so it must
 * never reach a request the answer was not meant for.
 */
class VaryingAnswersTests extends CacheIntegrationTest {

    @Test
    void storesNoAnswerThatVariesOnAHeaderOutsideTheKey() throws Exception {
        backend.replyByCall("/api/v1/comments/20",
                call -> Reply.json("{\"foo\":" + call + "}", "max-age=60").withHeader("Vary", "Foo"));

        client.get()
            .uri("/api/v1/comments/20")
            .header("Foo", "1")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectHeader()
            .valueEquals("Cache-Status", "memcached-gateway; fwd=uri-miss; detail=vary")
            .expectBody(String.class)
            .isEqualTo("{\"foo\":1}");
        client.get()
            .uri("/api/v1/comments/20")
            .header("Foo", "2")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(String.class)
            .isEqualTo("{\"foo\":2}");

        assertThat(backend.calls("/api/v1/comments/20")).isEqualTo(2);
        assertThat(raw.get("/api/v1/comments/20")).isNull();
    }

    @Test
    void storesOneAnswerPerValueOfAHeaderTheKeyIncludes() throws Exception {
        backend.replyByCall("/lang/page",
                call -> Reply.json("{\"call\":" + call + "}", "max-age=60").withHeader("Vary", "accept-LANGUAGE"));

        client.get()
            .uri("/lang/page")
            .header("Accept-Language", "en")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");
        awaitStored("/lang/page|en");
        client.get()
            .uri("/lang/page")
            .header("Accept-Language", "en")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo("{\"call\":1}");
        client.get()
            .uri("/lang/page")
            .header("Accept-Language", "fr")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(String.class)
            .isEqualTo("{\"call\":2}");

        assertThat(awaitStored("/lang/page|fr").value()).isEqualTo(bytes("{\"call\":2}"));
    }

    @Test
    void servesAGzipItemOnlyToAClientThatTakesGzipAndKeepsIt() throws Exception {
        byte[] gzipped = gzip("{\"compressed\":true}");
        raw.set("/gzip/item", 2, 0, gzipped);
        backend.reply("/gzip/item",
                Reply.json("{\"compressed\":false}", "max-age=60").withHeader("Vary", "Accept-Encoding"));

        HttpResponse<byte[]> plain = plainGet("/gzip/item");
        HttpResponse<byte[]> refused = plainGet("/gzip/item", "Accept-Encoding", "gzip;q=0, identity");
        HttpResponse<byte[]> hit = plainGet("/gzip/item", "Accept-Encoding", "br, gzip");

        assertThat(plain.headers().firstValue("X-Cache")).hasValue("MISS");
        assertThat(plain.headers().firstValue("Cache-Status")).hasValue("memcached-gateway; fwd=vary-miss");
        assertThat(plain.headers().firstValue("Content-Encoding")).isEmpty();
        assertThat(plain.body()).isEqualTo(bytes("{\"compressed\":false}"));
        assertThat(refused.headers().firstValue("X-Cache")).hasValue("MISS");
        assertThat(hit.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(hit.body()).isEqualTo(gzipped);
        assertThat(backend.calls("/gzip/item")).isEqualTo(2);
        // Stores land in order: once a later one is there, an identity store over the
        // gzip item would be too.
        client.get().uri("/api/v1/comments/21").exchange().expectHeader().valueEquals("X-Cache", "MISS");
        awaitStored("/api/v1/comments/21");
        assertThat(raw.get("/gzip/item").flags()).isEqualTo(2);
    }

    @Test
    void storesAnIdentityAnswerThatVariesOnlyOnAcceptEncoding() throws Exception {
        backend.reply("/api/v1/comments/22", Reply.json("{}", "max-age=60").withHeader("Vary", "Accept-Encoding"));

        client.get().uri("/api/v1/comments/22").exchange().expectHeader().valueEquals("X-Cache", "MISS");

        assertThat(awaitStored("/api/v1/comments/22").flags()).isZero();
    }

}
