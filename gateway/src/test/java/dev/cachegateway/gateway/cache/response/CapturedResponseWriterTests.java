package dev.cachegateway.gateway.cache.response;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class CapturedResponseWriterTests {

    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private static HttpHeaders written(MockServerHttpRequest request, HttpHeaders answer) {
        MockServerWebExchange exchange = MockServerWebExchange.from(request);
        CapturedResponseWriter.write(exchange, new CapturedResponse(HttpStatus.OK, answer, BODY)).block();
        return exchange.getResponse().getHeaders();
    }

    @Test
    void datesAnAnswerThatHasNoDate() {
        HttpHeaders headers = written(MockServerHttpRequest.get("/").build(), new HttpHeaders());

        assertThat(headers.getDate()).isPositive();
    }

    @Test
    void keepsTheDateAnAnswerHas() {
        HttpHeaders answer = new HttpHeaders();
        answer.setDate(784_111_777_000L);

        assertThat(written(MockServerHttpRequest.get("/").build(), answer).get(HttpHeaders.DATE))
            .containsExactly("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void datesANotModifiedAnswer() {
        HttpHeaders answer = new HttpHeaders();
        answer.setETag("\"v1\"");

        HttpHeaders headers = written(MockServerHttpRequest.get("/").header("If-None-Match", "\"v1\"").build(), answer);

        assertThat(headers.getETag()).isEqualTo("\"v1\"");
        assertThat(headers.containsHeader(HttpHeaders.DATE)).isTrue();
    }

}
