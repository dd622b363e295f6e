package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.memcached.health.MemcachedHealthIndicator;
import dev.cachegateway.gateway.memcached.pool.PoolClient;
import dev.cachegateway.gateway.memcached.pool.PoolConnection;
import dev.cachegateway.gateway.memcached.pool.ServerAddress;
import dev.cachegateway.gateway.memcached.pool.ServerResolver;
import dev.cachegateway.demo.support.FakeMemcached;
import dev.cachegateway.demo.support.MemcachedContainer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.util.concurrent.ImmediateEventExecutor;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import net.spy.memcached.ops.OperationException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

import org.springframework.boot.health.contributor.Health;

/**
 * Servers without meta commands: a fake memcached that reports an older version and
 * answers meta commands with {@code ERROR}, as memcached before them does. Their keys are
 * looked up with {@code get} and invalidated with {@code delete}, and no meta command
 * ever reaches them.
 */
@Testcontainers
class MetaFallbackTests {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private FakeMemcached old;

    @BeforeEach
    void startOldServer() throws Exception {
        old = new FakeMemcached("1.6.9");
    }

    @AfterEach
    void stopOldServer() throws Exception {
        old.close();
    }

    @Test
    void looksUpTheKeysOfAServerThatReportsAnOldVersionWithGet() throws Exception {
        try (ReactiveMemcached client = connect(List.of(old.address()))) {
            awaitVersion(client, 0, "1.6.9");
            StepVerifier.create(client.set("/page", 60, new CachedItem(bytes("old"), 5)))
                .expectNext(true)
                .verifyComplete();

            StepVerifier.create(client.lookup("/page", 30)).assertNext(found -> {
                assertThat(found.item().value()).isEqualTo(bytes("old"));
                assertThat(found.item().flags()).isEqualTo(5);
                assertThat(found.ttlKnown()).isFalse();
                assertThat(found.won() || found.stale() || found.winnerElsewhere()).isFalse();
            }).verifyComplete();
            StepVerifier.create(client.lookup("/absent", 30)).verifyComplete();

            assertThat(client.servers().get(0).metaCommands()).isFalse();
            assertThat(old.commands()).contains("get").doesNotContain("mg", "md");
            assertThat(old.connectionsAccepted()).isEqualTo(1);
        }
    }

    @Test
    void invalidatesOnAServerWithoutMetaCommandsByDeleting() throws Exception {
        try (ReactiveMemcached client = connect(List.of(old.address()))) {
            awaitVersion(client, 0, "1.6.9");
            StepVerifier.create(client.set("/page", 60, new CachedItem(bytes("old"), 0)))
                .expectNext(true)
                .verifyComplete();

            StepVerifier.create(client.invalidate("/page", 30)).expectNext(true).verifyComplete();
            StepVerifier.create(client.invalidate("/page", 30)).expectNext(false).verifyComplete();

            StepVerifier.create(client.lookup("/page", 0)).verifyComplete();
            assertThat(old.commands()).contains("delete").doesNotContain("mg", "md");
        }
    }

    @Test
    void asksTheVersionAgainWhenTheServerComesBackAsAnOlderOne() throws Exception {
        old.reportVersion("1.6.18");
        try (ReactiveMemcached client = connect(List.of(old.address()))) {
            awaitVersion(client, 0, "1.6.18");
            assertThat(client.servers().get(0).metaCommands()).isTrue();

            old.reportVersion("1.6.9");
            old.dropConnections();
            // spymemcached does not watch an idle connection, so it finds this one closed
            // when it next sends on it.
            client.deleteQuietly("/wake-up");

            awaitVersion(client, 0, "1.6.9");
            assertThat(client.servers().get(0).metaCommands()).isFalse();
            StepVerifier.create(client.lookup("/absent", 0)).verifyComplete();
            assertThat(old.commands()).doesNotContain("mg");
        }
    }

    @Test
    void looksUpWithGetOverTheBinaryProtocolWhichHasNoMetaCommands() throws Exception {
        try (ReactiveMemcached client = TestMemcached.connect(MemcachedContainer.address(memcached), TIMEOUT,
                properties -> properties.setProtocol(Protocol.BINARY))) {
            StepVerifier.create(client.set("/page", 60, new CachedItem(bytes("binary"), 0)))
                .expectNext(true)
                .verifyComplete();

            StepVerifier.create(client.lookup("/page", 30)).assertNext(found -> {
                assertThat(found.item().value()).isEqualTo(bytes("binary"));
                assertThat(found.ttlKnown()).isFalse();
            }).verifyComplete();
            assertThat(client.servers().get(0).metaCommands()).isFalse();
            assertThat(client.servers().get(0).version()).isNull();
        }
    }

    @Test
    void failsOnlyTheMetaCommandThatIsAnsweredWithErrorAndKeepsTheConnection() throws Exception {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(List.of(old.address()));
        ServerAddress server = ServerAddress.parse(old.address());
        PoolConnection connection = PoolConnection.open(
                new InetSocketAddress[] { new InetSocketAddress(server.host(), server.port()) }, properties,
                ImmediateEventExecutor.INSTANCE, properties.getRing().build(List.of(server)));
        PoolClient client = connection.client();
        try {
            await("connected").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> client.getAvailableServers().size() == 1);
            assertThat(client.set("/page", 0, "kept").get(5, TimeUnit.SECONDS)).isTrue();

            assertThatThrownBy(() -> client.metaGet("/page", 0).get(5, TimeUnit.SECONDS))
                .isInstanceOf(ExecutionException.class)
                .hasCauseInstanceOf(OperationException.class);

            assertThat(client.get("/page")).isEqualTo("kept");
            assertThat(old.commands()).contains("mg");
            assertThat(old.connectionsAccepted()).isEqualTo(1);
        }
        finally {
            connection.close(Duration.ofSeconds(1));
        }
    }

    @Test
    void usesMetaCommandsOnlyOnTheServersOfAMixedPoolThatHaveThem() throws Exception {
        try (ReactiveMemcached client = connect(List.of(MemcachedContainer.address(memcached), old.address()))) {
            awaitVersion(client, 1, "1.6.9");
            await("the new server's version").atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(10))
                .until(() -> client.servers().get(0).metaCommands());
            int withTtl = 0;
            int withoutTtl = 0;
            for (int i = 0; i < 40; i++) {
                String key = "/api/v1/comments/" + i;
                StepVerifier.create(client.set(key, 60, new CachedItem(bytes(key), 0)))
                    .expectNext(true)
                    .verifyComplete();
                MetaItem found = client.lookup(key, 0).block(TIMEOUT);
                assertThat(found).isNotNull();
                assertThat(found.item().value()).isEqualTo(bytes(key));
                if (found.ttlKnown()) {
                    withTtl++;
                }
                else {
                    withoutTtl++;
                }
            }

            assertThat(withTtl).isPositive();
            assertThat(withoutTtl).isPositive();
            assertThat(old.commands()).doesNotContain("mg");
            Health health = new MemcachedHealthIndicator(client).health(true).block(TIMEOUT);
            assertThat(health).isNotNull();
            @SuppressWarnings("unchecked")
            Map<String, Map<String, Object>> nodes = (Map<String, Map<String, Object>>) health.getDetails()
                .get("nodes");
            assertThat(nodes.get(MemcachedContainer.address(memcached))).containsEntry("metaCommands", true);
            assertThat(nodes.get(old.address())).containsEntry("metaCommands", false).containsEntry("version", "1.6.9");
        }
    }

    private static ReactiveMemcached connect(List<String> servers) {
        return TestMemcached.awaitConnected(TestMemcached.pool(servers, TIMEOUT, ServerResolver.DNS,
                TestMemcached.breakers(), new SimpleMeterRegistry()));
    }

    private static void awaitVersion(ReactiveMemcached client, int server, String version) {
        await("version " + version).atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(10))
            .until(() -> version.equals(client.servers().get(server).version()));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

}
