package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.http.HttpResponse;
import java.util.Arrays;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.TestPropertySource;

/**
 * The storing half of the filter: a miss fills memcached when, and only when, HTTP allows
 * a shared cache to keep the answer.
 */
@TestPropertySource(properties = "memcached.cache.max-item-size=4KB")
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class MemcachedCacheStoreTests extends CacheIntegrationTest {

    @Test
    void storesAMissSoThatTheNextRequestIsAHitWithTheSameBytes() throws Exception {
        String path = "/api/v1/comments/1";
        backend.reply(path, Reply.json("{\"id\":1}", "public, max-age=37"));

        byte[] first = client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(byte[].class)
            .returnResult()
            .getResponseBody();
        MemcachedTextClient.Item stored = awaitStored(path);
        byte[] second = client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(byte[].class)
            .returnResult()
            .getResponseBody();

        assertThat(second).isEqualTo(first).isEqualTo(bytes("{\"id\":1}"));
        assertThat(stored.value()).isEqualTo(first);
        assertThat(stored.flags()).isZero();
        assertThat(raw.ttl(path)).isBetween(35L, 37L);
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void storesNothingWithoutExplicitFreshnessOnARouteWithoutADefaultLifetime() throws Exception {
        backend.reply("/api/v1/comments/2", Reply.json("{}", "public"));

        client.get()
            .uri("/api/v1/comments/2")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectHeader()
            .valueEquals("Cache-Status", "memcached-gateway; fwd=uri-miss; detail=no-freshness");

        assertNotStored("/api/v1/comments/2");
    }

    @Test
    void storesForTheRoutesDefaultLifetimeWhenTheAnswerGivesNone() throws Exception {
        backend.reply("/default-ttl/2", Reply.json("{}", "public"));

        client.get().uri("/default-ttl/2").exchange().expectHeader().valueEquals("X-Cache", "MISS");

        awaitStored("/default-ttl/2");
        assertThat(raw.ttl("/default-ttl/2")).isBetween(58L, 60L);
    }

    @ParameterizedTest(name = "Cache-Control: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            no-store
            private
            no-cache
            max-age=0
            'public, max-age=60, no-store'
            's-maxage=0, max-age=60'
            """)
    void storesNothingThatCacheControlForbids(String cacheControl) throws Exception {
        backend.reply("/api/v1/comments/3", Reply.json("{}", cacheControl));

        client.get()
            .uri("/api/v1/comments/3")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");

        assertNotStored("/api/v1/comments/3");
    }

    @Test
    void storesNoAnswerThatSetsACookieOrVariesOnEverything() throws Exception {
        backend.reply("/api/v1/comments/4", Reply.json("{}", "max-age=60").withHeader("Set-Cookie", "s=1"));
        backend.reply("/api/v1/comments/5", Reply.json("{}", "max-age=60").withHeader("Vary", "*"));

        client.get().uri("/api/v1/comments/4").exchange().expectHeader().valueEquals("X-Cache", "MISS");
        client.get().uri("/api/v1/comments/5").exchange().expectHeader().valueEquals("X-Cache", "MISS");

        assertNotStored("/api/v1/comments/4");
        assertNotStored("/api/v1/comments/5");
    }

    @ParameterizedTest
    @CsvSource({ "404", "500", "302" })
    void storesNoStatusButTwoHundred(int status) throws Exception {
        backend.reply("/api/v1/comments/6", Reply.json("{}", "max-age=60").withStatus(status));

        client.get()
            .uri("/api/v1/comments/6")
            .exchange()
            .expectStatus()
            .isEqualTo(status)
            .expectHeader()
            .valueEquals("X-Cache", "MISS");

        assertNotStored("/api/v1/comments/6");
    }

    @Test
    void storesNothingForAPostOrARequestWithAuthorization() throws Exception {
        client.post().uri("/api/v1/comments/7").bodyValue("{}").exchange().expectStatus().isOk();
        client.get().uri("/api/v1/comments/8").header("Authorization", "Basic dTpw").exchange().expectStatus().isOk();

        assertNotStored("/api/v1/comments/7");
        assertNotStored("/api/v1/comments/8");
    }

    @Test
    void neverStoresANoCachePath() throws Exception {
        client.get().uri("/api/v1/comments/9/no_cache").exchange().expectStatus().isOk();

        assertNotStored("/api/v1/comments/9/no_cache");
    }

    @Test
    void streamsABodyOverTheMaximumItemSizeWholeAndDoesNotStoreIt() throws Exception {
        byte[] large = new byte[10_000];
        Arrays.fill(large, (byte) 'x');
        backend.reply("/api/v1/comments/10", Reply.json("", "max-age=60").withBody(large));

        client.get()
            .uri("/api/v1/comments/10")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(byte[].class)
            .isEqualTo(large);

        assertNotStored("/api/v1/comments/10");
    }

    @Test
    void storesAGzipAnswerWithTheGzipFlagAndServesItGzippedAgain() throws Exception {
        byte[] gzipped = gzip("{\"compressed\":true}");
        backend.reply("/gzip/doc",
                Reply.json("", "max-age=60").withBody(gzipped).withHeader("Content-Encoding", "gzip"));

        HttpResponse<byte[]> miss = plainGet("/gzip/doc", "Accept-Encoding", "gzip");
        MemcachedTextClient.Item stored = awaitStored("/gzip/doc");
        HttpResponse<byte[]> hit = plainGet("/gzip/doc", "Accept-Encoding", "gzip");

        assertThat(miss.headers().firstValue("X-Cache")).hasValue("MISS");
        assertThat(stored.value()).isEqualTo(gzipped);
        assertThat(stored.flags()).isEqualTo(2);
        assertThat(hit.headers().firstValue("X-Cache")).hasValue("HIT");
        assertThat(hit.headers().firstValue("Content-Encoding")).hasValue("gzip");
        assertThat(hit.body()).isEqualTo(miss.body()).isEqualTo(gzipped);
    }

    @Test
    void storesNoGzipAnswerOnARouteWithoutAGzipFlag() throws Exception {
        backend.reply("/api/v1/comments/11",
                Reply.json("", "max-age=60").withBody(gzip("{}")).withHeader("Content-Encoding", "gzip"));

        client.get()
            .uri("/api/v1/comments/11")
            .header("Accept-Encoding", "gzip")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "MISS");

        assertNotStored("/api/v1/comments/11");
    }

    // Stores reach memcached in order, so once a later one has landed an earlier one
    // would have too.
    private void assertNotStored(String key) throws Exception {
        client.get().uri("/api/v1/comments/999").exchange().expectHeader().valueEquals("X-Cache", "MISS");
        awaitStored("/api/v1/comments/999");
        assertThat(raw.get(key)).as("item under %s", key).isNull();
        raw.flushAll();
    }

}
