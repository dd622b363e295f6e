package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.DefaultHashAlgorithm;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

/**
 * Several memcached servers share the keys by Ketama consistent hashing, and every key is found where it was put.
 */
@Testcontainers
class KetamaDistributionTests {

    @Container
    static final GenericContainer<?> first = MemcachedContainer.create();

    @Container
    static final GenericContainer<?> second = MemcachedContainer.create();

    @Test
    void usesKetamaForSeveralServersOnly() {
        MemcachedProperties several = new MemcachedProperties();
        several.setServers(List.of("localhost:1", "localhost:2"));
        ConnectionFactory factory = MemcachedClientConfiguration.connectionFactory(several, null);

        assertThat(factory.getHashAlg()).isEqualTo(DefaultHashAlgorithm.KETAMA_HASH);
        assertThat(MemcachedClientConfiguration.connectionFactory(new MemcachedProperties(), null).getHashAlg())
                .isNotEqualTo(DefaultHashAlgorithm.KETAMA_HASH);
    }

    @Test
    void spreadsKeysOverTheServersAndFindsEachAgain() throws Exception {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(List.of(address(first), address(second)));
        properties.setOperationTimeout(Duration.ofMillis(500));
        MemcachedClientConfiguration configuration = new MemcachedClientConfiguration();
        try (ReactiveMemcached client = TestMemcached.awaitConnected(configuration.reactiveMemcached(properties,
                configuration.memcachedCircuitBreakers(properties), new SimpleMeterRegistry()))) {
            for (int i = 0; i < 100; i++) {
                StepVerifier.create(client.set("/api/v1/comments/" + i, 60, item("comment " + i)))
                        .expectNext(true).verifyComplete();
            }

            int onFirst = countKeys(first);
            int onSecond = countKeys(second);
            assertThat(onFirst + onSecond).isEqualTo(100);
            assertThat(onFirst).isBetween(20, 80);

            for (int i = 0; i < 100; i++) {
                String expected = "comment " + i;
                StepVerifier.create(client.get("/api/v1/comments/" + i))
                        .assertNext(found -> assertThat(new String(found.value(), StandardCharsets.UTF_8))
                                .isEqualTo(expected))
                        .verifyComplete();
            }
        }
    }

    private static int countKeys(GenericContainer<?> server) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(server)) {
            int count = 0;
            for (int i = 0; i < 100; i++) {
                if (raw.get("/api/v1/comments/" + i) != null) {
                    count++;
                }
            }
            return count;
        }
    }

    private static CachedItem item(String text) {
        return new CachedItem(text.getBytes(StandardCharsets.UTF_8), 0);
    }

    private static String address(GenericContainer<?> server) {
        return MemcachedContainer.address(server);
    }
}
