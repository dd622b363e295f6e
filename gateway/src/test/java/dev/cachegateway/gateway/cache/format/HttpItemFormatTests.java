package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The {@code http} item format through the gateway, against a real memcached: items hold
 * the whole answer as OpenResty's srcache stores it, and hits answer as the backend did.
 */
class HttpItemFormatTests extends CacheIntegrationTest {

    private static final DateTimeFormatter HTTP_DATE = DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'",
            Locale.US);

    private static String httpDate(Instant instant) {
        return HTTP_DATE.format(instant.atZone(ZoneOffset.UTC));
    }

    private static String text(byte[] bytes) {
        return new String(bytes, StandardCharsets.ISO_8859_1);
    }

    @Test
    void storesTheWholeAnswerAsSrcacheDoesUnderThePrefixedKey() throws Exception {
        backend.reply("/whole/a",
                Reply.json("{\"a\":1}", "public, max-age=60")
                    .withHeader("Access-Control-Allow-Origin", "*")
                    .withHeader("Link", "</whole/b>; rel=next")
                    .withHeader("Set-Cookie", "session=secret"));

        client.get()
            .uri("/whole/a")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectHeader()
            .valueEquals("Set-Cookie", "session=secret");

        // Header names as the backend spelt them; this one capitalises the first letter
        // only.
        String item = text(awaitStored("http:/whole/a").value()).toLowerCase(Locale.ROOT);
        assertThat(item).startsWith("http/1.1 200 ok\r\n")
            .contains("\r\naccess-control-allow-origin: *\r\n", "\r\nlink: </whole/b>; rel=next\r\n",
                    "\r\ncache-control: public, max-age=60\r\n", "\r\ndate: ")
            .endsWith("\r\n\r\n{\"a\":1}")
            .doesNotContain("set-cookie", "x-cache", "content-length", "etag");
        assertThat(raw.get("/whole/a")).isNull();
    }

    @Test
    void answersAHitWithTheStoredStatusHeadersAndAnAge() throws Exception {
        raw.set("http:/whole/gone", 0, 0, ("HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n"
                + "Cache-Control: max-age=60\r\nAccess-Control-Allow-Origin: *\r\n\r\ngone")
            .getBytes());

        client.get()
            .uri("/whole/gone")
            .exchange()
            .expectStatus()
            .isNotFound()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .valueEquals("Access-Control-Allow-Origin", "*")
            .expectHeader()
            .contentType("text/plain")
            .expectHeader()
            .exists("Age")
            .expectHeader()
            .exists("Date")
            .expectHeader()
            .exists("ETag")
            .expectBody(String.class)
            .isEqualTo("gone");
        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void agesAHitFromItsStoredDate() throws Exception {
        // Another writer's item, received when nobody knows: its Age and the time since
        // its Date add up, erring old.
        raw.set("http:/whole/dated", 0, 0,
                ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        + "Cache-Control: max-age=600\r\nAge: 10\r\nDate: " + httpDate(Instant.now().minusSeconds(100))
                        + "\r\n\r\n{}")
                    .getBytes());

        String age = client.get()
            .uri("/whole/dated")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .returnResult(String.class)
            .getResponseHeaders()
            .getFirst("Age");

        assertThat(Long.parseLong(age)).isBetween(110L, 130L);
    }

    @Test
    void judgesFreshnessFromTheStoredHeadersNotFromMemcachedsTtl() throws Exception {
        raw.set("http:/whole/old", 0, 0,
                ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + "Cache-Control: max-age=60\r\nDate: "
                        + httpDate(Instant.now().minusSeconds(300)) + "\r\n\r\n{\"old\":true}")
                    .getBytes());

        client.get()
            .uri("/whole/old")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "EXPIRED")
            .expectBody(String.class)
            .isEqualTo(RecordingBackend.bodyFor("/whole/old"));
        assertThat(backend.calls("/whole/old")).isEqualTo(1);
    }

    @Test
    void agesAnItemWithoutADateFromTheTtlItsWriterGaveIt() throws Exception {
        // As srcache stores it: no Date, and a TTL of the answer's max-age, 40 s of which
        // have passed.
        raw.set("http:/whole/undated", 0, 60,
                ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n" + "Cache-Control: max-age=100\r\n\r\n{}")
                    .getBytes());

        String age = client.get()
            .uri("/whole/undated")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .returnResult(String.class)
            .getResponseHeaders()
            .getFirst("Age");

        assertThat(Long.parseLong(age)).isBetween(38L, 45L);
    }

    @Test
    void answersConditionalRequestsFromTheStoredValidators() throws Exception {
        String lastModified = httpDate(Instant.now().minusSeconds(3600));
        raw.set("http:/whole/validated", 0, 0,
                ("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                        + "Cache-Control: max-age=600\r\nETag: \"v7\"\r\nLast-Modified: " + lastModified + "\r\n\r\n{}")
                    .getBytes());

        client.get()
            .uri("/whole/validated")
            .header("If-None-Match", "\"v7\"")
            .exchange()
            .expectStatus()
            .isNotModified()
            .expectHeader()
            .valueEquals("ETag", "\"v7\"");
        client.get()
            .uri("/whole/validated")
            .header("If-Modified-Since", httpDate(Instant.now()))
            .exchange()
            .expectStatus()
            .isNotModified();
        client.get()
            .uri("/whole/validated")
            .header("If-Modified-Since", httpDate(Instant.now().minusSeconds(7200)))
            .exchange()
            .expectStatus()
            .isOk();
        assertThat(backend.totalCalls()).isZero();
    }

    @Test
    void storesTheStatusesACacheMayStoreAndNoOthers() throws Exception {
        backend.reply("/whole/missing", Reply.json("{}", "max-age=60").withStatus(404));
        backend.reply("/whole/broken", Reply.json("{}", "max-age=60").withStatus(500));

        client.get().uri("/whole/missing").exchange().expectStatus().isNotFound();
        client.get().uri("/whole/broken").exchange().expectStatus().isEqualTo(500);

        assertThat(text(awaitStored("http:/whole/missing").value())).startsWith("HTTP/1.1 404 Not Found\r\n");
        client.get()
            .uri("/whole/missing")
            .exchange()
            .expectStatus()
            .isNotFound()
            .expectHeader()
            .valueEquals("X-Cache", "HIT");
        client.get().uri("/whole/broken").exchange().expectHeader().valueEquals("X-Cache", "MISS");
        assertThat(backend.calls("/whole/broken")).isEqualTo(2);
    }

    @Test
    void readsAnItemThatIsNotAnHttpMessageAsAMissAndReplacesIt() throws Exception {
        raw.set("http:/whole/plain", 0, 0, "{\"just\":\"a body\"}".getBytes());

        client.get().uri("/whole/plain").exchange().expectHeader().valueEquals("X-Cache", "MISS");

        assertThat(text(awaitStoredMessage("http:/whole/plain"))).startsWith("HTTP/1.1 200 OK\r\n");
    }

    private byte[] awaitStoredMessage(String key) {
        return Awaitility.await()
            .atMost(Duration.ofSeconds(10))
            .until(() -> raw.get(key).value(), value -> text(value).startsWith("HTTP/1.1"));
    }

}
