package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

class HttpMessageTests {

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.ISO_8859_1);
    }

    @Test
    void readsTheMessageSrcacheStores() {
        CapturedResponse answer = HttpMessage
            .decode(bytes("HTTP/1.1 301 Moved Permanently\r\n"
                    + "Content-Type: text/html\r\nLocation: /new\r\nX-Two: a\r\nX-Two: b\r\n\r\n<a>moved</a>"))
            .orElseThrow();

        assertThat(answer.status()).isEqualTo(HttpStatus.MOVED_PERMANENTLY);
        assertThat(answer.headers().getFirst("Location")).isEqualTo("/new");
        assertThat(answer.headers().get("X-Two")).containsExactly("a", "b");
        assertThat(answer.body()).isEqualTo(bytes("<a>moved</a>"));
    }

    @Test
    void trimsBlanksAroundValuesAndKeepsEmptyOnesAndABodyThatLooksLikeAHead() {
        CapturedResponse answer = HttpMessage
            .decode(bytes("HTTP/1.0 200\r\nX-Tab:\t a \t\r\nX-Empty:\r\n\r\n"
                    + "HTTP/1.1 500 Oops\r\nX-Not: a header\r\n\r\n"))
            .orElseThrow();

        assertThat(answer.status()).isEqualTo(HttpStatus.OK);
        assertThat(answer.headers().toSingleValueMap()).containsOnlyKeys("X-Tab", "X-Empty");
        assertThat(answer.headers().getFirst("X-Tab")).isEqualTo("a");
        assertThat(answer.headers().getFirst("X-Empty")).isEmpty();
        assertThat(answer.body()).isEqualTo(bytes("HTTP/1.1 500 Oops\r\nX-Not: a header\r\n\r\n"));
    }

    @Test
    void writesWhatItReads() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Content-Type", "application/json");
        headers.add("Link", "</a>; rel=next");
        byte[] body = { 0, 13, 10, 13, 10, (byte) 0xff };

        byte[] message = HttpMessage.encode(HttpStatus.OK, headers, body);

        assertThat(new String(message, StandardCharsets.ISO_8859_1))
            .startsWith("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nLink: </a>; rel=next\r\n\r\n");
        CapturedResponse read = HttpMessage.decode(message).orElseThrow();
        assertThat(read.headers()).isEqualTo(headers);
        assertThat(read.body()).isEqualTo(body);
    }

    @Test
    void keepsAStatusItDoesNotKnowAndAnEmptyBody() {
        byte[] message = HttpMessage.encode(HttpStatusCode.valueOf(299), new HttpHeaders(), new byte[0]);

        CapturedResponse read = HttpMessage.decode(message).orElseThrow();

        assertThat(read.status().value()).isEqualTo(299);
        assertThat(read.body()).isEmpty();
    }

    @Test
    void refusesWhatIsNotAResponseMessage() {
        assertThat(HttpMessage.decode(bytes("{\"a\":1}"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 2x0 OK\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\nbad name: x\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\n: x\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\nName: x\nOther: y\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\nName: x\u0000y\r\n\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"))).isEmpty();
        assertThat(HttpMessage.decode(bytes("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))).isEmpty();
    }

}
