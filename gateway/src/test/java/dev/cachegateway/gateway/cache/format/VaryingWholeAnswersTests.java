package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.cache.key.VariantKey;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

/**
 * An answer that varies, on an {@code http} route against a real memcached: each variant
 * is stored apart and each request gets its own, never another's; a write orphans them
 * all.
 */
class VaryingWholeAnswersTests extends CacheIntegrationTest {

    private void replyByLanguage(String path) {
        backend.replyByCall(path, call -> {
            String language = backend.lastRequestHeader(path, "Accept-Language");
            return Reply.json("{\"language\":\"" + language + "\"}", "public, max-age=60")
                .withHeader("Vary", "Accept-Language");
        });
    }

    private String get(String path, String language) {
        return new String(client.get()
            .uri(path)
            .header("Accept-Language", language)
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody()
            .returnResult()
            .getResponseBody(), StandardCharsets.UTF_8);
    }

    @Test
    void givesEachRequestItsOwnVariantFromMemcached() throws Exception {
        replyByLanguage("/whole/greeting");

        assertThat(get("/whole/greeting", "en")).contains("\"en\"");
        awaitStored("http:/whole/greeting");
        assertThat(get("/whole/greeting", "fr")).contains("\"fr\"");
        awaitVariants("/whole/greeting", "en", "fr");

        for (String language : new String[] { "en", "fr", "en", "fr" }) {
            client.get()
                .uri("/whole/greeting")
                .header("Accept-Language", language)
                .exchange()
                .expectHeader()
                .valueEquals("X-Cache", "HIT")
                .expectHeader()
                .doesNotExist("X-Cache-Variant")
                .expectBody(String.class)
                .value(body -> assertThat(body).contains("\"" + language + "\""));
        }
        assertThat(backend.calls("/whole/greeting")).isEqualTo(2);
    }

    @Test
    void treatsARequestWithoutTheHeaderAsAVariantOfItsOwn() throws Exception {
        replyByLanguage("/whole/plain");

        get("/whole/plain", "de");
        awaitStored("http:/whole/plain");
        client.get()
            .uri("/whole/plain")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(String.class)
            .value(body -> assertThat(body).contains("null"));
    }

    @Test
    void orphansEveryVariantWhenAWriteDeletesThePrimaryItem() throws Exception {
        replyByLanguage("/whole/doc");
        get("/whole/doc", "en");
        awaitStored("http:/whole/doc");
        get("/whole/doc", "fr");
        awaitVariants("/whole/doc", "en", "fr");
        backend.reply("/whole/doc", Reply.json("{}", "no-store"));

        client.put().uri("/whole/doc").bodyValue("{}").exchange().expectStatus().isOk();
        replyByLanguage("/whole/doc");

        get("/whole/doc", "en");
        awaitStored("http:/whole/doc");
        client.get()
            .uri("/whole/doc")
            .header("Accept-Language", "fr")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");
    }

    // Each variant's own item, under the key made of the primary item's epoch and the
    // language's digest.
    private void awaitVariants(String path, String... languages) {
        String primary = "http:" + path;
        HttpHeaders stored = HttpMessage.decode(awaitStored(primary).value()).orElseThrow().headers();
        for (String language : languages) {
            HttpHeaders request = new HttpHeaders();
            request.set("Accept-Language", language);
            awaitStored(VariantKey.of(primary, Variants.epoch(stored).orElseThrow(), Variants.digest(stored, request))
                .orElseThrow());
        }
    }

}
