package dev.cachegateway.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.demo.support.ByteRecordingBackend;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawAnswers;
import dev.cachegateway.demo.support.RawAnswers.Answer;
import dev.cachegateway.demo.support.RawHttp;
import dev.cachegateway.demo.support.StrictHttp;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * Requests whose length is ambiguous, whose chunks turn out malformed, or whose body is
 * too large, sent raw to the gateway in front of a backend that keeps every byte it gets:
 * each is answered with a JSON 400 (or 413) and {@code Connection: close}, and none of it
 * reaches the backend. Sound requests reach it framed one way.
 */
@Import(RequestFramingGuardTests.FramingRoute.class)
@TestPropertySource(properties = "memcached.request.max-body-size=1KB")
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class RequestFramingGuardTests extends CacheIntegrationTest {

    static final ByteRecordingBackend recorder = ByteRecordingBackend.startQuietly();

    private static final String HEAD = "POST /framing/1 HTTP/1.1\r\nHost: localhost\r\n";

    @BeforeEach
    void forgetWhatTheBackendGot() {
        recorder.reset();
    }

    @Test
    void refusesAnUnknownTransferCodingNextToAContentLength() throws Exception {
        assertRefused(HEAD + "Transfer-Encoding: xchunked\r\nContent-Length: 5\r\n\r\nhello", 400);
    }

    @Test
    void refusesAnotherCodingAfterChunked() throws Exception {
        assertRefused(HEAD + "Transfer-Encoding: chunked\r\nTransfer-Encoding: x\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400);
    }

    @Test
    void refusesChunkedNamedTwice() throws Exception {
        assertRefused(HEAD + "Transfer-Encoding: chunked, chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400);
    }

    @Test
    void refusesTransferEncodingInHttp10() throws Exception {
        assertRefused("POST /framing/1 HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n", 400);
    }

    @Test
    void refusesAContentLengthListWithTheSameJsonAnswer() throws Exception {
        assertRefused(HEAD + "Content-Length: 5, 5\r\n\r\nhello", 400);
    }

    @Test
    void refusesAChunkSizeFollowedByJunkWithoutForwardingTheChunksBeforeIt() throws Exception {
        assertRefused(HEAD + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3x\r\nabc\r\n0\r\n\r\n", 400);
    }

    @Test
    void holdsAChunkedBodyBackUntilItIsCompleteAndRefusesItsBadEnd() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes(HEAD + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n"));
            out.flush();
            Awaitility.await("the backend getting nothing of a request whose body is not complete")
                .during(Duration.ofMillis(300))
                .atMost(Duration.ofSeconds(2))
                .until(() -> recorder.requests().isEmpty());
            out.write(bytes("zz\r\n"));
            out.flush();

            String answer = readToEnd(socket.getInputStream());

            assertThat(answer).startsWith("HTTP/1.1 400 ")
                .containsIgnoringCase("connection: close")
                .contains("\"status\":400");
        }
        assertThat(recorder.requests()).isEmpty();
        assertThat(recorder.connectionsWithPartialRequests()).isZero();
    }

    @Test
    void forwardsAChunkedBodyInOnePieceWithAContentLength() throws Exception {
        List<Answer> answers = RawAnswers.exchange(port, bytes(HEAD + "Connection: close\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6;ext=1\r\n world\r\n0\r\nX-Trailer: 1\r\n\r\n"));

        assertThat(answers).singleElement().extracting(Answer::status).isEqualTo(200);
        StrictHttp.Request got = recorder.requests().get(0);
        assertThat(got.bodyText()).isEqualTo("hello world");
        assertThat(got.field("content-length")).isEqualTo("11");
        assertThat(got.field("transfer-encoding")).isNull();
    }

    @Test
    void answers413ToADeclaredLengthOverTheLimitWithoutReadingTheBody() throws Exception {
        assertRefused(HEAD + "Content-Length: 1025\r\n\r\n" + "x".repeat(1025), 413);
    }

    @Test
    void answers413ToChunksThatAddUpToMoreThanTheLimit() throws Exception {
        String chunk = "200\r\n" + "x".repeat(512) + "\r\n";
        assertRefused(HEAD + "Transfer-Encoding: chunked\r\n\r\n" + chunk + chunk + chunk + "0\r\n\r\n", 413);
    }

    @Test
    void forwardsABodyOfExactlyTheLimit() throws Exception {
        List<Answer> answers = RawAnswers.exchange(port,
                bytes(HEAD + "Connection: close\r\nContent-Length: 1024\r\n\r\n" + "x".repeat(1024)));

        assertThat(answers).singleElement().extracting(Answer::status).isEqualTo(200);
        assertThat(recorder.requests()).singleElement().extracting(r -> r.body().length).isEqualTo(1024);
    }

    @Test
    void saysContinueBeforeReadingABodyThatWaitsForIt() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream()
                .write(bytes(HEAD + "Connection: close\r\nExpect: 100-continue\r\n" + "Content-Length: 5\r\n\r\n"));
            InputStream in = socket.getInputStream();
            assertThat(new String(in.readNBytes(25), StandardCharsets.ISO_8859_1))
                .isEqualTo("HTTP/1.1 100 Continue\r\n\r\n");
            socket.getOutputStream().write(bytes("hello"));

            assertThat(readToEnd(in)).startsWith("HTTP/1.1 200 ");
        }
        assertThat(recorder.requests()).singleElement().extracting(StrictHttp.Request::bodyText).isEqualTo("hello");
    }

    @Test
    void passesRequestsWithoutABodyOnOneKeptConnection() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            for (int i = 1; i <= 2; i++) {
                socket.getOutputStream().write(bytes("GET /framing/" + i + " HTTP/1.1\r\nHost: localhost\r\n\r\n"));
                assertThat(RawHttp.readAnswer(socket.getInputStream())).as("answer %d", i).startsWith("HTTP/1.1 200 ");
            }
        }
        assertThat(recorder.requests()).extracting(StrictHttp.Request::target)
            .containsExactly("/framing/1", "/framing/2");
    }

    private void assertRefused(String request, int status) throws IOException {
        List<Answer> answers = RawAnswers.exchange(port,
                bytes(request + "GET /framing/after HTTP/1.1\r\n" + "Host: localhost\r\n\r\n"));

        assertThat(answers).as("answers to %s", request).hasSize(1);
        Answer answer = answers.get(0);
        assertThat(answer.status()).isEqualTo(status);
        assertThat(answer.closes()).as("Connection: close").isTrue();
        assertThat(answer.header("Content-Type")).isEqualTo("application/json");
        assertThat(answer.body()).startsWith("{\"status\":" + status + ",").doesNotContain("Exception");
        assertThat(recorder.requests()).as("requests the backend got").isEmpty();
        assertThat(recorder.connectionsWithPartialRequests()).isZero();
    }

    private static String readToEnd(InputStream in) throws IOException {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        in.transferTo(all);
        return all.toString(StandardCharsets.ISO_8859_1);
    }

    /** {@code /framing/**}, a cached route, in front of the recording backend. */
    @TestConfiguration(proxyBeanMethods = false)
    static class FramingRoute {

        @Bean
        RouteLocator framingRoute(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
            return routes.routes()
                .route("framing",
                        r -> r.path("/framing/**")
                            .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                            .uri(recorder.uri()))
                .build();
        }

    }

}
