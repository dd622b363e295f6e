package dev.cachegateway.gateway.cache.revalidate;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * A stale whole answer with a validator, on an {@code http} route against a real
 * memcached: the backend is asked with the stored validators, and its 304 refreshes the
 * item without sending the body again (RFC 9111 4.3).
 */
class RevalidationTests extends CacheIntegrationTest {

    private static final String BODY = "{\"version\":1}";

    @Test
    void refreshesAStaleItemWhenTheBackendSaysItHasNotChanged() throws Exception {
        backend.replyByCall("/whole/doc", call -> call == 1 ? Reply.json(BODY, "max-age=0").withHeader("ETag", "\"v1\"")
                : Reply.json("", "max-age=60").withStatus(304).withBody(new byte[0]).withHeader("ETag", "\"v1\""));
        client.get().uri("/whole/doc").exchange().expectHeader().valueEquals("X-Cache", "MISS");
        awaitStored("http:/whole/doc");

        client.get()
            .uri("/whole/doc")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "REVALIDATED")
            .expectHeader()
            .valueEquals("ETag", "\"v1\"")
            .expectHeader()
            .valueEquals("Cache-Control", "max-age=60")
            .expectBody(String.class)
            .isEqualTo(BODY);

        assertThat(backend.lastRequestHeader("/whole/doc", "If-None-Match")).isEqualTo("\"v1\"");
        awaitItemSaying("http:/whole/doc", "max-age=60");
        client.get()
            .uri("/whole/doc")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo(BODY);
        assertThat(backend.calls("/whole/doc")).isEqualTo(2);
    }

    @Test
    void asksWithLastModifiedAndTakesANewAnswerWhenItChanged() throws Exception {
        String lastModified = "Tue, 01 Dec 2026 00:00:00 GMT";
        backend.replyByCall("/whole/page",
                call -> call == 1 ? Reply.json(BODY, "max-age=0").withHeader("Last-Modified", lastModified)
                        : Reply.json("{\"version\":2}", "max-age=60"));
        client.get().uri("/whole/page").exchange();
        awaitStored("http:/whole/page");

        client.get()
            .uri("/whole/page")
            .header("If-None-Match", "\"theirs\"")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "EXPIRED")
            .expectBody(String.class)
            .isEqualTo("{\"version\":2}");

        assertThat(backend.lastRequestHeader("/whole/page", "If-Modified-Since")).isEqualTo(lastModified);
        assertThat(backend.lastRequestHeader("/whole/page", "If-None-Match")).isNull();
        awaitItemSaying("http:/whole/page", "{\"version\":2}");
    }

    @Test
    void fetchesAStaleItemWithoutAValidatorWhole() throws Exception {
        raw.set("http:/whole/plain", 0, 0, ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                + "Cache-Control: max-age=1\r\nDate: Tue, 01 Dec 2026 00:00:00 GMT\r\n\r\n{}")
            .getBytes());

        client.get().uri("/whole/plain").exchange().expectHeader().valueEquals("X-Cache", "EXPIRED");

        assertThat(backend.lastRequestHeader("/whole/plain", "If-None-Match")).isNull();
        assertThat(backend.lastRequestHeader("/whole/plain", "If-Modified-Since")).isNull();
    }

    private void awaitItemSaying(String key, String text) {
        Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> new String(raw.get(key).value(), StandardCharsets.ISO_8859_1).contains(text));
    }

}
