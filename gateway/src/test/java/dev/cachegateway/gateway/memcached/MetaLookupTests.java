package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

/**
 * {@link ReactiveMemcached#lookup} and {@link ReactiveMemcached#invalidate} against a
 * memcached with meta commands (1.6.10 and later), where they go out as {@code mg} and
 * {@code md}.
 */
@Testcontainers
class MetaLookupTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofSeconds(2), TestMemcached.breakers(), new SimpleMeterRegistry());
        // The server's version is asked once connected; lookups use get until it has
        // answered.
        await("the server's version").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(10))
            .until(() -> client.servers().get(0).metaCommands());
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    @Test
    void showsTheVersionTheServerReportedAndThatItTakesMetaCommands() {
        ServerState server = client.servers().get(0);

        assertThat(server.version()).startsWith("1.6.");
        assertThat(server.metaCommands()).isTrue();
    }

    @Test
    void returnsTheValueFlagsAndRemainingTtlOfAnItemStoredWithATtl() throws Exception {
        raw.set("/api/v1/comments/7", 3, 100, bytes("{\"id\":7}"));

        StepVerifier.create(client.lookup("/api/v1/comments/7", 0)).assertNext(found -> {
            assertThat(text(found)).isEqualTo("{\"id\":7}");
            assertThat(found.item().flags()).isEqualTo(3);
            assertThat(found.ttlKnown()).isTrue();
            assertThat(found.remainingTtlSeconds()).isBetween(1L, 100L);
            assertThat(found.won()).isFalse();
            assertThat(found.stale()).isFalse();
            assertThat(found.winnerElsewhere()).isFalse();
        }).verifyComplete();
    }

    @Test
    void reportsAnItemStoredWithoutExpiryAsNeverExpiring() throws Exception {
        raw.set("/forever", 0, 0, bytes("x"));

        StepVerifier.create(client.lookup("/forever", 0))
            .assertNext(found -> assertThat(found.remainingTtlSeconds()).isEqualTo(MetaItem.NO_EXPIRY))
            .verifyComplete();
    }

    @Test
    void completesEmptyOnAMissAndLeavesNoItemBehind() throws Exception {
        long storedBefore = raw.stat("total_items");

        StepVerifier.create(client.lookup("/absent", 30)).verifyComplete();

        assertThat(raw.get("/absent")).isNull();
        assertThat(raw.stat("total_items")).isEqualTo(storedBefore);
    }

    @Test
    void readsAnEmptyValue() throws Exception {
        raw.set("/empty", 1, 0, new byte[0]);

        StepVerifier.create(client.lookup("/empty", 0)).assertNext(found -> {
            assertThat(found.item().value()).isEmpty();
            assertThat(found.item().flags()).isEqualTo(1);
        }).verifyComplete();
    }

    @Test
    void keepsClientFlagsAbove16BitsWhole() throws Exception {
        StepVerifier.create(client.set("/wide", 0, new CachedItem(bytes("w"), 1 << 20)))
            .expectNext(true)
            .verifyComplete();
        raw.setLiterally("set /widest 4294967295 0 1\r\nx\r\n");

        StepVerifier.create(client.lookup("/wide", 0))
            .assertNext(found -> assertThat(found.item().flags()).isEqualTo(1 << 20))
            .verifyComplete();
        StepVerifier.create(client.lookup("/widest", 0))
            .assertNext(found -> assertThat(Integer.toUnsignedLong(found.item().flags())).isEqualTo(4294967295L))
            .verifyComplete();
    }

    @Test
    void givesTheRightToRefreshToExactlyOneOfManyLookupsOnceTheTtlIsBelowTheThreshold() throws Exception {
        raw.set("/hot", 0, 10, bytes("hot"));

        List<MetaItem> answers = Flux.range(0, 50)
            .flatMap(n -> client.lookup("/hot", 30), 50)
            .collectList()
            .block(Duration.ofSeconds(10));

        assertThat(answers).hasSize(50).allSatisfy(found -> assertThat(text(found)).isEqualTo("hot"));
        assertThat(answers).filteredOn(MetaItem::won).hasSize(1);
        assertThat(answers).filteredOn(found -> !found.won())
            .hasSize(49)
            .allSatisfy(found -> assertThat(found.winnerElsewhere()).isTrue());
    }

    @Test
    void givesNoRightToRefreshWhileTheTtlIsAboveTheThreshold() throws Exception {
        raw.set("/fresh", 0, 1000, bytes("fresh"));

        StepVerifier.create(client.lookup("/fresh", 30))
            .assertNext(found -> assertThat(found.won() || found.winnerElsewhere()).isFalse())
            .verifyComplete();
    }

    @Test
    void servesAnInvalidatedItemAsStaleAndGivesItsRefreshToOneLookup() throws Exception {
        raw.set("/page", 0, 0, bytes("old"));

        StepVerifier.create(client.invalidate("/page", 30)).expectNext(true).verifyComplete();

        StepVerifier.create(client.lookup("/page", 0)).assertNext(found -> {
            assertThat(text(found)).isEqualTo("old");
            assertThat(found.stale()).isTrue();
            assertThat(found.won()).isTrue();
            assertThat(found.remainingTtlSeconds()).isBetween(1L, 30L);
        }).verifyComplete();
        StepVerifier.create(client.lookup("/page", 0)).assertNext(found -> {
            assertThat(found.stale()).isTrue();
            assertThat(found.won()).isFalse();
            assertThat(found.winnerElsewhere()).isTrue();
        }).verifyComplete();
    }

    @Test
    void invalidatingAnAbsentKeyAnswersFalseAndCreatesNothing() throws Exception {
        long storedBefore = raw.stat("total_items");

        StepVerifier.create(client.invalidate("/absent", 30)).expectNext(false).verifyComplete();

        assertThat(raw.get("/absent")).isNull();
        assertThat(raw.stat("total_items")).isEqualTo(storedBefore);
    }

    @Test
    void refusesToInvalidateForNoTimeSinceMemcachedWouldKeepTheStaleItemForever() {
        StepVerifier.create(client.invalidate("/page", 0)).expectError(IllegalArgumentException.class).verify();
    }

    @Test
    void givesEachOfManyLookupsInFlightOnOneConnectionItsOwnAnswer() throws Exception {
        int keys = 300;
        for (int i = 0; i < keys; i += 2) {
            raw.set(key(i), i, 1000 + i, value(i));
        }

        // Every key three times, all at once, with plain gets among them that
        // spymemcached merges into multi-gets, so meta answers, misses and get answers
        // interleave on the one connection.
        List<String> answers = Flux.range(0, keys * 3).flatMap(n -> {
            int i = n % keys;
            if (n / keys == 2) {
                return client.get(key(i))
                    .map(item -> i + ":get:" + item.value().length + "/" + item.flags())
                    .defaultIfEmpty(i + ":miss");
            }
            return client.lookup(key(i), 0).map(found -> {
                assertThat(found.item().value()).as("key %d", i).isEqualTo(value(i));
                assertThat(found.remainingTtlSeconds()).as("key %d", i).isBetween(1L, 1000L + i);
                return i + ":mg:" + found.item().value().length + "/" + found.item().flags();
            }).defaultIfEmpty(i + ":miss");
        }, keys * 3).collectList().block(Duration.ofSeconds(30));

        assertThat(answers).hasSize(keys * 3);
        for (int i = 0; i < keys; i++) {
            int n = i;
            List<String> ofKey = answers.stream().filter(answer -> answer.startsWith(n + ":")).toList();
            if (i % 2 == 0) {
                assertThat(ofKey).containsExactlyInAnyOrder(i + ":mg:" + value(i).length + "/" + i,
                        i + ":mg:" + value(i).length + "/" + i, i + ":get:" + value(i).length + "/" + i);
            }
            else {
                assertThat(ofKey).containsExactly(i + ":miss", i + ":miss", i + ":miss");
            }
        }
    }

    @Test
    void timesMetaLookupsUnderTheirOwnOperationName() throws Exception {
        SimpleMeterRegistry meters = new SimpleMeterRegistry();
        try (ReactiveMemcached timed = TestMemcached.connect(memcached.getHost(),
                memcached.getMappedPort(MemcachedContainer.PORT), Duration.ofSeconds(2), TestMemcached.breakers(),
                meters)) {
            await("the server's version").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> timed.servers().get(0).metaCommands());

            StepVerifier.create(timed.lookup("/absent", 0)).verifyComplete();
            StepVerifier.create(timed.invalidate("/absent", 5)).expectNext(false).verifyComplete();

            assertThat(
                    meters.get("memcached.operations").tag("operation", "mg").tag("outcome", "success").timer().count())
                .isEqualTo(1);
            assertThat(
                    meters.get("memcached.operations").tag("operation", "md").tag("outcome", "success").timer().count())
                .isEqualTo(1);
        }
    }

    private static String key(int i) {
        return "/api/v1/comments/" + i;
    }

    // Sizes from a few bytes to past spymemcached's 16 KiB read buffer, so some values
    // arrive in several reads.
    private static byte[] value(int i) {
        return ("{\"id\":" + i + "}").repeat(1 + (i * 37) % 2500).getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(MetaItem found) {
        return new String(found.item().value(), StandardCharsets.UTF_8);
    }

}
