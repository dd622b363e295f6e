package dev.cachegateway.gateway.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.LongStream;
import java.util.stream.Stream;

import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.support.GatewayReplicas;
import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * The history checker: two gateways on one memcached, in front of an origin whose answers carry versions, driven by
 * a seeded mix of reads and writes from concurrent clients; then every rule of {@link HistoryChecks} over what the
 * clients saw and the origin answered, and nothing left over once the run has been quiet. A violation names the seed
 * and the slice of the history that shows it. A fixed set of seeds runs every time, and one random seed, printed.
 */
@Testcontainers
class HistoryCheckerTests {

    static final int CLIENTS = 8;

    // scripts/history-soak.sh asks for more, and for longer histories.
    static final int RANDOM_SEEDS = Integer.getInteger("history.randomSeeds", 1);

    static final int REQUESTS_EACH = Integer.getInteger("history.requestsEach", 60);

    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(2);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    static final VersionedOrigin origin = new VersionedOrigin();

    static final List<ConfigurableApplicationContext> gateways = new ArrayList<>();

    @BeforeAll
    static void startWarmGateways() {
        for (int i = 0; i < 2; i++) {
            gateways.add(GatewayReplicas.start(memcached, origin.uri(),
                    "--memcached.cache.lock-timeout=" + LOCK_TIMEOUT.toMillis() + "ms"));
        }
        // Warm, so that a cold JVM's slow first requests are not what the rules judge.
        driver().run(0, CLIENTS, 20);
    }

    @AfterAll
    static void stopGateways() {
        gateways.forEach(ConfigurableApplicationContext::close);
        origin.close();
    }

    static Stream<Long> seeds() {
        long[] random = ThreadLocalRandom.current().longs(RANDOM_SEEDS, 1, Long.MAX_VALUE).toArray();
        System.out.println("HistoryCheckerTests: the random seeds of this run are " + Arrays.toString(random));
        return LongStream.concat(LongStream.of(1, 2, 3), LongStream.of(random)).boxed();
    }

    @ParameterizedTest(name = "seed {0}")
    @MethodSource("seeds")
    void keepsEveryRuleOverASeededHistory(long seed) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.flushAll();
        }
        origin.reset();

        History history = driver().run(seed, CLIENTS, REQUESTS_EACH);

        HistoryChecks checks = new HistoryChecks(history, origin.calls());
        System.out.printf("HistoryCheckerTests: seed %d, %d requests (%d cancelled), %d origin calls, repeated calls"
                + " of the documented cases %s%n", seed, history.requests().size(), checks.cancelled(),
                origin.calls().size(), checks.excusedOriginCalls());
        assertThat(checks.unanswered(HistoryDriver.REQUEST_BOUND)).as("seed %d: liveness", seed).isEmpty();
        assertThat(checks.olderThanAFinishedWrite()).as("seed %d: a write wins", seed).isEmpty();
        assertThat(checks.crossTalk()).as("seed %d: every answer the origin's", seed).isEmpty();
        assertThat(checks.repeatedOriginCalls()).as("seed %d: one origin call per version", seed).isEmpty();
        assertNothingLeftOver(seed);
    }

    // Quiet for the lock timeout and a second: no lock in memcached, no lead in flight in either gateway.
    private static void assertNothingLeftOver(long seed) {
        await().atMost(LOCK_TIMEOUT.plusSeconds(5)).untilAsserted(() -> {
            try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
                assertThat(raw.keys()).as("seed %d: locks left", seed)
                        .noneMatch(key -> key.endsWith(ReplicaLocks.SUFFIX));
            }
            assertThat(gateways).as("seed %d: leads left in flight", seed)
                    .allSatisfy(gateway -> assertThat(gateway.getBean(InFlightRequests.class).size()).isZero());
        });
    }

    private static HistoryDriver driver() {
        return new HistoryDriver(gateways.stream().map(gateway -> GatewayReplicas.uri(gateway, "")).toList(),
                gateways.stream().map(GatewayReplicas::managementUri).toList());
    }
}
