package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Collection;
import java.util.Map;

import dev.cachegateway.gateway.memcached.pool.PoolConnectionFactory;
import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Flux;

/**
 * Lookups issued together are merged into multi-gets by spymemcached; each must still get its own item, over
 * either protocol, whatever else shares its multi-get.
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
            // Every key three times over, all subscribed at once, so that they queue up behind each other.
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
    void asksSpymemcachedToMergeLookupsOnlyWhenConfiguredTo() {
        assertThat(factory(true).shouldOptimize()).isTrue();
        assertThat(factory(false).shouldOptimize()).isFalse();
    }

    private static PoolConnectionFactory factory(boolean merge) {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setMergeLookups(merge);
        return new PoolConnectionFactory(properties, null, null, new int[] {0});
    }

    private static String key(int i) {
        return "/api/v1/comments/" + i;
    }

    private static byte[] value(int i) {
        return ("{\"id\":" + i + "}").repeat(1 + i % 7).getBytes(StandardCharsets.UTF_8);
    }
}
