package dev.cachegateway.gateway.cache.response;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
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

    @Test
    void runsWhatComesLastOnceTheAnswersHeadersAreSetBeforeItCommits() {
        HttpHeaders answer = new HttpHeaders();
        answer.setETag("\"v1\"");
        answer.set("X-Cache", "MISS");
        List<String> seen = new ArrayList<>();
        for (MockServerHttpRequest request : List.of(MockServerHttpRequest.get("/").build(),
                MockServerHttpRequest.head("/").build(),
                MockServerHttpRequest.get("/").header("If-None-Match", "\"v1\"").build())) {
            MockServerWebExchange exchange = MockServerWebExchange.from(request);

            CapturedResponseWriter
                .write(request, exchange.getResponse(), new CapturedResponse(HttpStatus.OK, answer, BODY), response -> {
                    HttpStatusCode status = response.getStatusCode();
                    seen.add(status + " " + response.getHeaders().getETag() + " committed=" + response.isCommitted());
                    response.getHeaders().set("X-Cache", "HIT");
                })
                .block();

            assertThat(exchange.getResponse().getHeaders().get("X-Cache")).containsExactly("HIT");
        }

        assertThat(seen).containsExactly("200 OK \"v1\" committed=false", "200 OK \"v1\" committed=false",
                "304 NOT_MODIFIED \"v1\" committed=false");
    }

}
