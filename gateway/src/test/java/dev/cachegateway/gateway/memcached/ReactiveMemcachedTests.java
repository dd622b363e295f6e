package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.gateway.support.MemcachedTextClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

@Testcontainers
class ReactiveMemcachedTests {

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(List.of(memcached.getHost() + ":" + memcached.getMappedPort(11211)));
        client = new MemcachedClientConfiguration().reactiveMemcached(properties);
        raw = new MemcachedTextClient(memcached.getHost(), memcached.getMappedPort(11211));
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    @Test
    void completesEmptyOnAMiss() {
        StepVerifier.create(client.get("/absent")).verifyComplete();
    }

    @Test
    void readsAnItemWrittenByAnotherClientWithItsRawBytesAndFlags() throws Exception {
        raw.set("/api/v1/comments/7", 3, 0, "{\"id\":7}".getBytes(StandardCharsets.UTF_8));

        StepVerifier.create(client.get("/api/v1/comments/7"))
                .assertNext(item -> {
                    assertThat(new String(item.value(), StandardCharsets.UTF_8)).isEqualTo("{\"id\":7}");
                    assertThat(item.flags()).isEqualTo(3);
                })
                .verifyComplete();
    }

    @Test
    void writesRawBytesThatOtherClientsReadWithoutJavaSerialisation() throws Exception {
        byte[] body = "[1,2,3]".getBytes(StandardCharsets.UTF_8);

        StepVerifier.create(client.set("/list", 60, new CachedItem(body, 0))).expectNext(true).verifyComplete();

        MemcachedTextClient.Item stored = raw.get("/list");
        assertThat(stored.value()).isEqualTo(body);
        assertThat(stored.flags()).isZero();
        assertThat(raw.ttl("/list")).isBetween(55L, 60L);
    }

    @Test
    void deletesAKey() throws Exception {
        raw.set("/gone", 0, 0, new byte[] {1});

        StepVerifier.create(client.delete("/gone")).expectNext(true).verifyComplete();

        assertThat(raw.get("/gone")).isNull();
    }

    @Test
    void failsAKeyMemcachedCannotTakeAsAnErrorSignalNotAThrow() {
        StepVerifier.create(client.get("/with space")).expectError(IllegalArgumentException.class).verify();
        StepVerifier.create(client.get("/" + "k".repeat(300))).expectError(IllegalArgumentException.class).verify();
    }

    @Test
    void timesOutALookupThatMemcachedDoesNotAnswer() {
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();
        try {
            StepVerifier.create(client.get("/slow"))
                    .expectError(TimeoutException.class)
                    .verify(Duration.ofSeconds(5));
        }
        finally {
            memcached.getDockerClient().unpauseContainerCmd(memcached.getContainerId()).exec();
        }
    }
}
