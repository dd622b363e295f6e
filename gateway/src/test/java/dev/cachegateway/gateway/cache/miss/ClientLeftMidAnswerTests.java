package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Arrays;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawHttp;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;

/**
 * A client that goes away while its answer is being written: the lead ends, and leaves
 * nothing running for its key. A lead left running would hold every later request for its
 * key for the lock timeout, until a write to the key.
 */
class ClientLeftMidAnswerTests extends CacheIntegrationTest {

    private static final int ANSWERS = 20;

    @Autowired
    private InFlightRequests leads;

    @Test
    void aLeadWhoseClientLeftAsItsAnswerWasWrittenEnds() throws Exception {
        byte[] body = new byte[256 * 1024];
        Arrays.fill(body, (byte) 'x');
        for (int i = 0; i < ANSWERS; i++) {
            String path = "/api/v1/comments/left-" + i;
            backend.reply(path, Reply.json("", "public, max-age=60").withBody(body));
            // Reads the status line and hangs up, with most of the body still to come.
            RawHttp.statusLine(port, RawHttp.request("GET " + path + " HTTP/1.1", "Host: localhost"));
        }

        await("every lead ended").atMost(Duration.ofSeconds(20))
            .untilAsserted(() -> assertThat(leads.running()).isZero());
    }

}
