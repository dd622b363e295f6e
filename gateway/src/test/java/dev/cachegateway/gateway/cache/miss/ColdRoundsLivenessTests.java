package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

import dev.cachegateway.gateway.cache.MemcachedCacheProperties;
import dev.cachegateway.gateway.cache.miss.LivenessTally.Outcome;
import dev.cachegateway.gateway.memcached.MemcachedProperties;
import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.config.HttpClientProperties;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

/**
 * The liveness rule on cold misses that coalesce: round after round, fifty requests at
 * once for a key nobody asked for before, so that one leads and the others follow, and
 * every one of them is answered 200 with the backend's body within lookup + lock wait +
 * the backend's connect and response timeouts. Each kind of client runs
 * {@code -Dliveness.rounds} rounds (4 unless told; {@code scripts/liveness-soak.sh} runs
 * thousands). A failure names the round and request and says what the gateway saw of it.
 * Backend calls beyond one a round are counted and printed, not asserted: the rule here
 * is that nobody is left without an answer.
 */
// Short enough that the bound stays inside the JDK client's own deadline
// (ConcurrentGets), so that a request the gateway answers late is seen late rather than
// lost.
@TestPropertySource(properties = { "memcached.cache.lock-timeout=2s",
        "spring.cloud.gateway.server.webflux.httpclient.response-timeout=5s" })
@Import(RequestsSeen.class)
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class ColdRoundsLivenessTests extends CacheIntegrationTest {

    static final int CONCURRENT = 50;

    static final int ROUNDS = Integer.getInteger("liveness.rounds", 4);

    /** How often a long run says how far it got. */
    static final int PROGRESS = 250;

    // Long enough for the fifty to arrive while the leader waits, short enough for
    // thousands of rounds.
    static final Duration BACKEND_DELAY = Duration.ofMillis(50);

    @Autowired
    private RequestsSeen seen;

    // The bound comes from the gateway's own settings, as the application and the test
    // base set them.
    @Autowired
    private MemcachedProperties memcachedSettings;

    @Autowired
    private MemcachedCacheProperties cacheSettings;

    @Autowired
    private HttpClientProperties backendSettings;

    @ParameterizedTest
    @EnumSource
    void answersEveryRequestOfEveryRoundOfFiftyColdMisses(LivenessClient kind) {
        // A follower that waited out the lock timeout connects to the backend itself
        // before it asks it.
        Duration bound = memcachedSettings.getOperationTimeout()
            .plus(cacheSettings.getLockTimeout())
            .plusMillis(backendSettings.getConnectTimeout())
            .plus(backendSettings.getResponseTimeout());
        // A request answered after the bound is late; one not answered in twice the
        // bound, or by the client's own deadline if that comes first, is lost.
        Duration giveUp = bound.multipliedBy(2);
        LivenessTally tally = new LivenessTally(kind, bound);
        try (LivenessClient.Client client = kind.open(CONCURRENT)) {
            // Round -1 is judged on being answered only: it is the first through paths
            // and connections that this client, and in the first test the gateway too,
            // have not taken before, on a JVM that has them still to compile; there a
            // leader may well take longer than the lock timeout, and a backend call
            // longer than the response timeout (a 504, which the bound allows). What it
            // got is printed.
            for (int round = -1; round < ROUNDS; round++) {
                String path = "/api/v1/comments/cold-" + kind.name().toLowerCase() + "-" + round;
                byte[] body = RecordingBackend.bodyFor(path).getBytes(StandardCharsets.UTF_8);
                backend.reply(path,
                        Reply.json(RecordingBackend.bodyFor(path), "public, max-age=60").after(BACKEND_DELAY));
                String uri = "http://localhost:" + port + path;
                String prefix = kind.name().toLowerCase() + "-" + round + "-";
                long startedAt = System.nanoTime();
                List<Outcome> outcomes = Flux.range(0, CONCURRENT)
                    .flatMap(i -> timed(client, uri, i, prefix + i, giveUp), CONCURRENT)
                    .collectList()
                    .block(giveUp.plusSeconds(5));
                tally.round(round, round >= 0, body, Objects.requireNonNull(outcomes), backend.calls(path), startedAt,
                        seen);
                seen.clear();
                if (round > 0 && round % PROGRESS == 0) {
                    System.out.println("ColdRoundsLivenessTests: so far " + tally.summary());
                }
            }
        }
        System.out.println("ColdRoundsLivenessTests: " + tally.summary());
        assertThat(tally.live()).as("%s%n%s", tally.summary(), tally.failures()).isTrue();
    }

    private static Mono<Outcome> timed(LivenessClient.Client client, String uri, int index, String id,
            Duration giveUp) {
        return Mono.defer(() -> {
            long sentAt = System.nanoTime();
            return client.get(uri, id)
                .timeout(giveUp)
                .map(answer -> new Outcome(index, id, answer, null, since(sentAt)))
                .onErrorResume(failure -> Mono.just(new Outcome(index, id, null, failure, since(sentAt))));
        });
    }

    private static Duration since(long nanos) {
        return Duration.ofNanos(System.nanoTime() - nanos);
    }

}
