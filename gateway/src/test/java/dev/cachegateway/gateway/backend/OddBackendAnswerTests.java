package dev.cachegateway.gateway.backend;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawBackend.Answer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

/**
 * Backend answers that no well-behaved server sends, written byte for byte by a raw TCP
 * backend: each is passed on or refused with a clean 502, never a 500, a hang, or a leak
 * into another request's answer.
 */
class OddBackendAnswerTests extends CacheIntegrationTest {

    private static final String JSON_HEAD = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n";

    // Each test starts with no pooled connection, so that its requests share the one it
    // opens.
    @BeforeEach
    void closeBackendConnections() throws Exception {
        rawBackend.closeConnections();
    }

    @Test
    void skipsInterimAnswersAndForwardsTheFinalOne() {
        rawBackend.script("/raw/interim",
                (onPath, onConnection) -> Answer.of("HTTP/1.1 102 Processing\r\n\r\n"
                        + "HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n" + JSON_HEAD
                        + "Content-Length: 7\r\n\r\n{\"a\":1}"));

        client.get()
            .uri("/raw/interim")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .isEqualTo("{\"a\":1}");
    }

    @Test
    void datesAnAnswerTheBackendSentWithoutADate() {
        // RFC 9110 6.6.1: a recipient with a clock appends the Date of an answer it
        // forwards or stores without one.
        rawBackend.script("/raw/undated", (onPath, onConnection) -> Answer
            .of(JSON_HEAD + "Cache-Control: public, max-age=60\r\nContent-Length: 7\r\n\r\n{\"a\":1}"));

        client.get()
            .uri("/raw/undated")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectHeader()
            .exists("Date");
        awaitStored("/raw/undated");
        client.get()
            .uri("/raw/undated")
            .exchange()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectHeader()
            .exists("Date");
    }

    @Test
    void closesAConnectionWhoseAnswerRunsPastItsContentLength() {
        // The surplus is the head of another answer: on a reused connection, it would
        // take the next answer's bytes for its body, and leave the rest to be read as the
        // answer to the next request.
        rawBackend.script("/raw/overrun", (onPath, onConnection) -> Answer
            .of(JSON_HEAD + "Content-Length: 5\r\n\r\n[1,2]HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n"));
        rawBackend.script("/raw/next",
                (onPath, onConnection) -> Answer.of(JSON_HEAD + "Content-Length: 6\r\n\r\n\"real\""));

        client.get().uri("/raw/overrun").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("[1,2]");
        client.get().uri("/raw/next").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("\"real\"");
    }

    @Test
    void closesAConnectionThatHoldsJunkAfterItsAnswer() {
        // Without a line end the junk makes no message of its own: it would be the start
        // of the next answer.
        rawBackend.script("/raw/junk",
                (onPath, onConnection) -> Answer.of(JSON_HEAD + "Content-Length: 5\r\n\r\n[1,2]0BE-4C8C-BBE4"));
        rawBackend.script("/raw/after-junk",
                (onPath, onConnection) -> Answer.of(JSON_HEAD + "Content-Length: 6\r\n\r\n\"real\""));

        client.get().uri("/raw/junk").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("[1,2]");
        // A POST, which is never sent twice, must get the real answer at the first try.
        client.post()
            .uri("/raw/after-junk")
            .exchange()
            .expectStatus()
            .isOk()
            .expectBody(String.class)
            .isEqualTo("\"real\"");
    }

    @Test
    void sendsAGetAgainWhenItsReusedConnectionIsClosedBeforeTheAnswer() {
        // Like a backend whose keep-alive timeout ends just as the gateway reuses the
        // connection.
        rawBackend.script("/raw/keep-alive", (onPath, onConnection) -> onConnection > 1 ? Answer.hangUp()
                : Answer.of(JSON_HEAD + "Content-Length: 1\r\n\r\n" + onPath));
        int connectionsBefore = rawBackend.connections();

        client.get().uri("/raw/keep-alive").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("1");
        client.get().uri("/raw/keep-alive").exchange().expectStatus().isOk().expectBody(String.class).isEqualTo("3");

        assertThat(rawBackend.requests("/raw/keep-alive")).isEqualTo(3);
        assertThat(rawBackend.connections() - connectionsBefore).isEqualTo(2);
    }

    @Test
    void neverSendsAPostTwice() {
        rawBackend.script("/raw/warm-up",
                (onPath, onConnection) -> Answer.of(JSON_HEAD + "Content-Length: 2\r\n\r\n{}"));
        rawBackend.script("/raw/post", (onPath, onConnection) -> Answer.hangUp());

        client.get().uri("/raw/warm-up").exchange().expectStatus().isOk();
        client.post().uri("/raw/post").exchange().expectStatus().isEqualTo(502);

        assertThat(rawBackend.requests("/raw/post")).isEqualTo(1);
    }

    @Test
    void answersAWriteWhoseConnectionTheBackendResetsWithA502() {
        // A backend that crashes, or drops its connections as it restarts, mid-write: not
        // the gateway's own error.
        rawBackend.script("/raw/reset", (onPath, onConnection) -> Answer.resetConnection());

        client.put()
            .uri("/raw/reset")
            .bodyValue("{}")
            .exchange()
            .expectStatus()
            .isEqualTo(502)
            .expectHeader()
            .contentTypeCompatibleWith(MediaType.APPLICATION_JSON);

        assertThat(rawBackend.requests("/raw/reset")).isEqualTo(1);
    }

    @Test
    void answersAnAnswerThatCannotBeReadWithAJsonBadGateway() {
        rawBackend.script("/raw/garbage", (onPath, onConnection) -> Answer.of("HTTP/1.1 OK fine\r\n\r\n").thenClose());

        client.get()
            .uri("/raw/garbage")
            .exchange()
            .expectStatus()
            .isEqualTo(502)
            .expectHeader()
            .contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo(502)
            .jsonPath("$.trace")
            .doesNotExist();
    }

    @Test
    void passesOnAndStoresAnAnswerWithAnInvalidDate() throws Exception {
        rawBackend.script("/raw/bad-date", (onPath, onConnection) -> Answer
            .of(JSON_HEAD + "Date: foo\r\nCache-Control: max-age=60\r\nContent-Length: 2\r\n\r\n{}"));

        client.get()
            .uri("/raw/bad-date")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectBody(String.class)
            .isEqualTo("{}");

        assertThat(awaitStored("/raw/bad-date").value()).isEqualTo(bytes("{}"));
    }

    @Test
    void treatsAnInvalidExpiresAsAlreadyExpired() {
        rawBackend.script("/raw/bad-expires", (onPath, onConnection) -> Answer
            .of(JSON_HEAD + "Expires: Thu, 18 Aug 2050 2:01:18 GMT\r\nContent-Length: 2\r\n\r\n{}"));

        client.get()
            .uri("/raw/bad-expires")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "MISS")
            .expectHeader()
            .valueEquals("Cache-Status", "memcached-gateway; fwd=uri-miss; detail=expired");
    }

}
