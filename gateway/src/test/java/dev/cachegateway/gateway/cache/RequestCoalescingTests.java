package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.http.ResponseEntity;
import org.springframework.test.context.TestPropertySource;

/**
 * Concurrent misses for one key on one gateway: one backend call, and no waiter left
 * hanging whatever that call does.
 */
@TestPropertySource(properties = "memcached.cache.lock-timeout=3s")
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class RequestCoalescingTests extends CacheIntegrationTest {

    static final int CONCURRENT = 50;

    private final ConcurrentGets gets = new ConcurrentGets();

    @Test
    void sendsOneBackendCallForFiftyConcurrentMissesAndGivesAllTheSameAnswer() {
        String path = "/api/v1/comments/1";
        // Long enough for all fifty to arrive while the leader waits, even on a loaded
        // machine.
        backend.reply(path, Reply.json("{\"id\":1}", "public, max-age=60").after(Duration.ofMillis(1500)));

        List<ResponseEntity<byte[]>> answers = getConcurrently(path);

        assertThat(backend.calls(path)).isEqualTo(1);
        assertThat(answers).hasSize(CONCURRENT).allSatisfy(answer -> {
            assertThat(answer.getStatusCode().value()).isEqualTo(200);
            assertThat(answer.getBody()).isEqualTo(bytes("{\"id\":1}"));
            assertThat(answer.getHeaders().getFirst("Cache-Control")).isEqualTo("public, max-age=60");
            assertThat(answer.getHeaders().getFirst("Date")).isNotNull();
        });
        assertThat(answers).extracting(answer -> answer.getHeaders().getFirst("X-Cache"))
            .containsOnly("MISS", "COALESCED")
            .containsOnlyOnce("MISS");
    }

    @Test
    void sendsOneBackendCallForEachVariantOfConcurrentMissesThatVary() {
        String path = "/whole/varying";
        backend.reply(path,
                Reply.json("{\"id\":2}", "public, max-age=60")
                    .withHeader("Vary", "Accept-Language")
                    .after(Duration.ofMillis(500)));

        List<ResponseEntity<byte[]>> answers = Flux.range(0, 20)
            .flatMap(i -> gets.get("http://localhost:" + port + path, "Accept-Language", i % 2 == 0 ? "en" : "fr"), 20)
            .collectList()
            .block(Duration.ofSeconds(30));

        assertThat(backend.calls(path)).as("one call for each of the two variants").isEqualTo(2);
        assertThat(answers).hasSize(20)
            .extracting(answer -> answer.getHeaders().getFirst("X-Cache"))
            .containsOnly("MISS", "COALESCED");
    }

    // A request whose lookup missed just before the leader's answer reached memcached
    // used to become a second leader; the window is short, so it takes rounds with
    // requests still arriving as the leader finishes.
    @Test
    void sendsNoSecondBackendCallWhileTheLeadersAnswerIsBeingStored() {
        for (int round = 0; round < 20; round++) {
            String path = "/api/v1/comments/round-" + round;
            backend.reply(path,
                    Reply.json("{\"round\":" + round + "}", "public, max-age=60").after(Duration.ofMillis(20)));

            List<ResponseEntity<byte[]>> answers = getConcurrently(path);

            assertThat(answers).hasSize(CONCURRENT)
                .allSatisfy(answer -> assertThat(answer.getStatusCode().value()).isEqualTo(200));
            assertThat(backend.calls(path)).as("backend calls for %s", path).isEqualTo(1);
        }
    }

    @Test
    void answersEveryWaiterWhenTheLeadersBackendCallFails() {
        String path = "/api/v1/comments/2";
        backend.replyByCall(path,
                call -> call == 1
                        ? Reply.json("{\"error\":true}", "no-store").withStatus(500).after(Duration.ofMillis(700))
                        : Reply.json("{\"id\":2}", "public, max-age=60"));

        List<ResponseEntity<byte[]>> answers = getConcurrently(path);

        assertThat(answers).hasSize(CONCURRENT)
            .extracting(answer -> answer.getStatusCode().value())
            .containsOnly(200, 500)
            .containsOnlyOnce(500);
        // The waiters look memcached up again (a stale item could stand in) and coalesce
        // behind a new leader.
        assertThat(backend.calls(path)).isGreaterThanOrEqualTo(2).isLessThan(CONCURRENT);
    }

    @Test
    void sharesNothingTheBackendMarksPrivate() {
        String path = "/api/v1/comments/3";
        backend.reply(path, Reply.json("{\"mine\":true}", "private").after(Duration.ofMillis(700)));

        List<ResponseEntity<byte[]>> answers = getConcurrently(path);

        assertThat(answers).extracting(answer -> answer.getHeaders().getFirst("X-Cache")).containsOnly("MISS");
        assertThat(backend.calls(path)).isEqualTo(CONCURRENT);
    }

    @Test
    void sendsWaitersToTheBackendThemselvesOnceTheLockTimeoutPasses() {
        String path = "/api/v1/comments/4";
        backend.replyByCall(path, call -> Reply.json("{\"call\":" + call + "}", "public, max-age=60")
            .after(call == 1 ? Duration.ofSeconds(6) : Duration.ZERO));

        List<ResponseEntity<byte[]>> answers = getConcurrently(path);

        assertThat(answers).hasSize(CONCURRENT)
            .allSatisfy(answer -> assertThat(answer.getStatusCode().value()).isEqualTo(200));
        assertThat(answers).extracting(answer -> answer.getHeaders().getFirst("X-Cache")).containsOnly("MISS");
        assertThat(backend.calls(path)).isEqualTo(CONCURRENT);
    }

    private List<ResponseEntity<byte[]>> getConcurrently(String path) {
        return gets.getAll(CONCURRENT, i -> "http://localhost:" + port + path);
    }

}
