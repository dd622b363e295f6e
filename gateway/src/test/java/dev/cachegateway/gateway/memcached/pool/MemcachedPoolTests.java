package dev.cachegateway.gateway.memcached.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;

import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.ServerState;
import dev.cachegateway.gateway.memcached.ServerUnavailableException;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.gateway.memcached.health.MemcachedHealthIndicator;
import dev.cachegateway.gateway.memcached.ring.HashRing;
import dev.cachegateway.gateway.memcached.ring.LibmemcachedKetama;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

/**
 * Three real memcached servers known by names that a resolver of the test's own turns
 * into addresses, so that a server can move, vanish from DNS or appear late, as
 * containers and pods do.
 */
@Testcontainers
@RunsAlone
class MemcachedPoolTests {

    private static final List<String> NAMES = List.of("mc-a:11211", "mc-b:11211", "mc-c:11211");

    @Container
    private final GenericContainer<?> a = memcached();

    @Container
    private final GenericContainer<?> b = memcached();

    @Container
    private final GenericContainer<?> c = memcached();

    private final Map<String, GenericContainer<?>> dns = new ConcurrentHashMap<>();

    private final HashRing ring = LibmemcachedKetama.ring(NAMES.stream().map(ServerAddress::parse).toList());

    private final List<String> keys = IntStream.range(0, 90).mapToObj(i -> "/api/v1/comments/" + i).toList();

    private ReactiveMemcached pool;

    @AfterEach
    void close() throws Exception {
        pool.close();
    }

    @Test
    void storesEachKeyOnTheServerLibmemcachedWouldChoose() throws Exception {
        connect(Map.of("mc-a", a, "mc-b", b, "mc-c", c));
        for (String key : keys) {
            StepVerifier.create(pool.set(key, 60, item(key))).expectNext(true).verifyComplete();
        }

        List<GenericContainer<?>> servers = List.of(a, b, c);
        for (String key : keys) {
            int expected = ring.serverFor(key);
            for (int server = 0; server < 3; server++) {
                assertThat(rawGet(servers.get(server), key) != null).as("%s on %s", key, NAMES.get(server))
                    .isEqualTo(server == expected);
            }
        }
        assertThat(keys.stream().map(ring::serverFor).distinct()).hasSize(3);
    }

    @Test
    void failsOnlyTheKeysOfAStoppedServerAndOpensOnlyItsBreaker() throws Exception {
        connect(Map.of("mc-a", a, "mc-b", b, "mc-c", c));
        b.getDockerClient().stopContainerCmd(b.getContainerId()).exec();
        awaitDown(1);

        for (String key : keys) {
            var lookup = StepVerifier.create(pool.get(key));
            if (ring.serverFor(key) == 1) {
                lookup.expectError().verify(Duration.ofSeconds(2));
            }
            else {
                lookup.verifyComplete();
            }
        }
        assertThat(pool.servers()).extracting(ServerState::circuitBreaker)
            .containsExactly(CircuitBreaker.State.CLOSED, CircuitBreaker.State.OPEN, CircuitBreaker.State.CLOSED);
    }

    @Test
    void reportsHealthUpWhileOneServerAnswersAndDownWhenNone() {
        connect(Map.of("mc-a", a, "mc-b", b, "mc-c", c));
        MemcachedHealthIndicator health = new MemcachedHealthIndicator(pool);
        for (GenericContainer<?> server : List.of(b, c)) {
            server.getDockerClient().stopContainerCmd(server.getContainerId()).exec();
        }
        awaitDown(1);
        awaitDown(2);

        Health oneLeft = health.health(true).block(Duration.ofSeconds(5));
        assertThat(oneLeft.getStatus()).isEqualTo(Status.UP);
        assertThat(oneLeft.getDetails()).containsEntry("connected", 1L);

        a.getDockerClient().stopContainerCmd(a.getContainerId()).exec();
        awaitDown(0);
        Health none = health.health(true).block(Duration.ofSeconds(5));
        assertThat(none.getStatus()).isEqualTo(Status.DOWN);
        assertThat(none.getDetails()).containsEntry("error", "not connected to any memcached server");
    }

    @Test
    void timesOutOnlyTheKeysOfAHungServer() {
        connect(Map.of("mc-a", a, "mc-b", b, "mc-c", c));
        String onB = keys.stream().filter(key -> ring.serverFor(key) == 1).findFirst().orElseThrow();
        String onA = keys.stream().filter(key -> ring.serverFor(key) == 0).findFirst().orElseThrow();
        b.getDockerClient().pauseContainerCmd(b.getContainerId()).exec();
        try {
            StepVerifier.create(pool.get(onB)).expectError(TimeoutException.class).verify(Duration.ofSeconds(5));
            for (int i = 0; i < 10; i++) {
                StepVerifier.create(pool.get(onB)).expectError().verify(Duration.ofSeconds(5));
            }
            StepVerifier.create(pool.get(onB)).expectError(CallNotPermittedException.class).verify();
            StepVerifier.create(pool.get(onA)).verifyComplete();
        }
        finally {
            b.getDockerClient().unpauseContainerCmd(b.getContainerId()).exec();
        }
    }

    @Test
    void followsAServerToItsNewAddressWithoutMovingAnyKey() throws Exception {
        connect(Map.of("mc-a", a, "mc-b", b, "mc-c", c));
        try (GenericContainer<?> moved = memcached()) {
            moved.start();
            String onA = keys.stream().filter(key -> ring.serverFor(key) == 0).findFirst().orElseThrow();
            String onB = keys.stream().filter(key -> ring.serverFor(key) == 1).findFirst().orElseThrow();
            rawSet(moved, onA, "on the new a");
            rawSet(b, onB, "on b");

            dns.put("mc-a", moved);
            a.stop();

            await("the key of mc-a found at its new address").atMost(Duration.ofSeconds(15))
                .untilAsserted(() -> StepVerifier.create(pool.get(onA))
                    .assertNext(found -> assertThat(text(found)).isEqualTo("on the new a"))
                    .verifyComplete());
            StepVerifier.create(pool.get(onB))
                .assertNext(found -> assertThat(text(found)).isEqualTo("on b"))
                .verifyComplete();
            assertThat(pool.servers().get(0).address().getPort()).isEqualTo(moved.getMappedPort(11211));
        }
    }

    @Test
    void startsBeforeAServerNameResolvesAndUsesTheServerOnceItDoes() throws Exception {
        connect(Map.of("mc-a", a, "mc-b", b));
        String onC = keys.stream().filter(key -> ring.serverFor(key) == 2).findFirst().orElseThrow();
        String onA = keys.stream().filter(key -> ring.serverFor(key) == 0).findFirst().orElseThrow();
        rawSet(c, onC, "on c");

        StepVerifier.create(pool.get(onC)).expectError(ServerUnavailableException.class).verify(Duration.ofSeconds(2));
        StepVerifier.create(pool.get(onA)).verifyComplete();
        assertThat(pool.servers().get(2).address()).isNull();

        dns.put("mc-c", c);
        await("mc-c used once it resolves").atMost(Duration.ofSeconds(15))
            .untilAsserted(() -> StepVerifier.create(pool.get(onC))
                .assertNext(found -> assertThat(text(found)).isEqualTo("on c"))
                .verifyComplete());
    }

    // Through Docker's port proxy a dead server is noticed on the next operation, not at
    // once as on a network.
    private void awaitDown(int server) {
        String key = keys.stream().filter(candidate -> ring.serverFor(candidate) == server).findFirst().orElseThrow();
        await(NAMES.get(server) + " seen down").atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            StepVerifier.create(pool.get(key)).expectError().verify(Duration.ofSeconds(2));
            assertThat(pool.servers().get(server).connected()).isFalse();
        });
    }

    private void connect(Map<String, GenericContainer<?>> initial) {
        dns.putAll(initial);
        pool = TestMemcached.pool(NAMES, Duration.ofMillis(500), this::resolve, TestMemcached.breakers(),
                new SimpleMeterRegistry());
        await().atMost(Duration.ofSeconds(10)).until(() -> pool.availableServers() == initial.size());
    }

    private InetSocketAddress resolve(ServerAddress server) throws UnknownHostException {
        GenericContainer<?> container = dns.get(server.host());
        if (container == null) {
            throw new UnknownHostException(server.host());
        }
        return new InetSocketAddress(container.getHost(), container.getMappedPort(MemcachedContainer.PORT));
    }

    private static GenericContainer<?> memcached() {
        return MemcachedContainer.create();
    }

    private static MemcachedTextClient.Item rawGet(GenericContainer<?> server, String key) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(server)) {
            return raw.get(key);
        }
    }

    private static void rawSet(GenericContainer<?> server, String key, String value) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(server)) {
            raw.set(key, 0, 0, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    private static CachedItem item(String text) {
        return new CachedItem(text.getBytes(StandardCharsets.UTF_8), 0);
    }

    private static String text(CachedItem item) {
        return new String(item.value(), StandardCharsets.UTF_8);
    }

}
