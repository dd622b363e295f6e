package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.cachegateway.gateway.memcached.pool.PoolConnectionFactory;
import dev.cachegateway.demo.support.FakeMemcached;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Lookups issued together are merged into multi-gets by spymemcached; each must still get
 * its own item, over either protocol, whatever else shares its multi-get, and a multi-get
 * that fails must fail each of them.
 */
@Testcontainers
class MergedLookupsTests {

    private static final int KEYS = 200;

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    @BeforeEach
    void storeEveryOtherKey() throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.flushAll();
            for (int i = 0; i < KEYS; i += 2) {
                raw.set(key(i), i, 0, value(i));
            }
        }
    }

    @ParameterizedTest
    @EnumSource(Protocol.class)
    void givesEachOfManyLookupsIssuedTogetherItsOwnItemOrNone(Protocol protocol) throws Exception {
        try (ReactiveMemcached client = TestMemcached.connect(MemcachedContainer.address(memcached),
                Duration.ofSeconds(2), properties -> properties.setProtocol(protocol))) {
            // Every key three times over, all subscribed at once, so that they queue up
            // behind each other.
            Map<Integer, Collection<String>> answers = Flux.range(0, KEYS * 3)
                .flatMap(n -> client.get(key(n % KEYS))
                    .map(item -> new String(item.value(), StandardCharsets.UTF_8) + "/" + item.flags())
                    .defaultIfEmpty("miss")
                    .map(answer -> Map.entry(n % KEYS, answer)), KEYS * 3)
                .collectMultimap(Map.Entry::getKey, Map.Entry::getValue)
                .block(Duration.ofSeconds(20));

            assertThat(answers).hasSize(KEYS);
            answers.forEach((i, got) -> assertThat(got).as("key %d", i)
                .containsOnly(i % 2 == 0 ? new String(value(i), StandardCharsets.UTF_8) + "/" + i : "miss")
                .hasSize(3));
        }
    }

    @Test
    void failsEveryLookupOfAMultiGetWhoseConnectionDropsInsteadOfReadingAMiss() throws Exception {
        try (FakeMemcached hanging = new FakeMemcached("1.6.9");
                ReactiveMemcached client = TestMemcached.connect(hanging.address(), Duration.ofMinutes(1),
                        properties -> properties.setMergeLookups(true))) {
            hanging.holdGets();
            // Subscribed one right after another, so that they queue up behind each other
            // and go out merged.
            List<CompletableFuture<String>> answers = IntStream.range(0, KEYS)
                .mapToObj(i -> client.get(key(i))
                    .map(item -> "hit")
                    .defaultIfEmpty("miss")
                    .onErrorResume(failure -> Mono.just("error"))
                    .toFuture())
                .toList();
            await("every key sent").atMost(Duration.ofSeconds(10)).until(() -> hanging.keysAsked() == KEYS);
            assertThat(hanging.commands().stream().filter("get"::equals).count()).as("gets, merged").isLessThan(KEYS);

            // spymemcached cancels what waits on the connection it lost: the multi-gets,
            // not the lookups in them.
            hanging.dropConnections();

            await("every lookup answered, or one read as a miss").atMost(Duration.ofSeconds(10))
                .until(() -> answers.stream().allMatch(CompletableFuture::isDone)
                        || answers.stream().anyMatch(answer -> "miss".equals(answer.getNow(null))));
            assertThat(answers).extracting(answer -> answer.getNow("no answer yet")).containsOnly("error");
        }
    }

    @Test
    void asksSpymemcachedToMergeLookupsOnlyWhenConfiguredTo() {
        assertThat(factory(true).shouldOptimize()).isTrue();
        assertThat(factory(false).shouldOptimize()).isFalse();
    }

    private static PoolConnectionFactory factory(boolean merge) {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setMergeLookups(merge);
        return new PoolConnectionFactory(properties, null, null, new int[] { 0 });
    }

    private static String key(int i) {
        return "/api/v1/comments/" + i;
    }

    private static byte[] value(int i) {
        return ("{\"id\":" + i + "}").repeat(1 + i % 7).getBytes(StandardCharsets.UTF_8);
    }

}
