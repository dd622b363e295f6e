package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import com.github.dockerjava.api.model.ExposedPort;
import com.github.dockerjava.api.model.PortBinding;
import com.github.dockerjava.api.model.Ports;
import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.webtestclient.autoconfigure.AutoConfigureWebTestClient;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * memcached slow or gone while the gateway runs: every request is still answered by the
 * backend, well within the client's patience, and hits come back when memcached does.
 */
@Testcontainers
@SpringBootTest(classes = GatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
@AutoConfigureWebTestClient
@RunsAlone
class MemcachedOutageTests {

    static final int HOST_PORT = freePort();

    static final int MIN_ANSWERED_WHILE_OPEN = 3;

    // A fixed host port, so that memcached comes back where the gateway left it after a
    // stop and start.
    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create()
        .withCreateContainerCmdModifier(cmd -> cmd.getHostConfig()
            .withPortBindings(
                    new PortBinding(Ports.Binding.bindPort(HOST_PORT), ExposedPort.tcp(MemcachedContainer.PORT))));

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void properties(DynamicPropertyRegistry registry) {
        registry.add("memcached.servers", () -> memcached.getHost() + ":" + HOST_PORT);
        registry.add("memcached.max-reconnect-delay", () -> "1s");
        registry.add("memcached.operation-timeout", () -> "500ms");
        // Long enough for a few requests on a loaded machine while the breaker is open.
        registry.add("memcached.circuit-breaker.wait-in-open-state", () -> "5s");
        registry.add("comments-service.uri", backend::uri);
    }

    @Autowired
    WebTestClient client;

    @Autowired
    CircuitBreakerRegistry breakers;

    @Autowired
    MeterRegistry meters;

    @Autowired
    ReactiveMemcached memcachedClient;

    @BeforeEach
    void impatientClient() {
        // Far above the 100 ms operation timeout, far below anything that waits on
        // memcached itself.
        client = client.mutate().responseTimeout(Duration.ofSeconds(2)).build();
        TestMemcached.awaitConnected(memcachedClient);
        backend.reset();
    }

    @AfterEach
    void memcachedRunning() {
        breakers.circuitBreaker(memcached.getHost() + ":" + HOST_PORT).reset();
        var docker = memcached.getDockerClient();
        var state = docker.inspectContainerCmd(memcached.getContainerId()).exec().getState();
        if (Boolean.TRUE.equals(state.getPaused())) {
            docker.unpauseContainerCmd(memcached.getContainerId()).exec();
        }
        else if (!Boolean.TRUE.equals(state.getRunning())) {
            docker.startContainerCmd(memcached.getContainerId()).exec();
        }
    }

    @AfterAll
    static void stopBackend() {
        backend.close();
    }

    @Test
    void answersFromTheBackendWhileMemcachedHangsAndHitsAgainAfter() throws Exception {
        store("/api/v1/comments/1", "cached");
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();

        for (int i = 0; i < 5; i++) {
            var headers = client.get()
                .uri("/api/v1/comments/1")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Cache", "ERROR")
                .expectBody(String.class)
                .isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/1"))
                .returnResult()
                .getResponseHeaders();
            assertThat(CacheStatusMember.last(headers.get("Cache-Status")).parameters()).containsEntry("fwd", "miss")
                .containsEntry("detail", "timeout");
        }
        memcached.getDockerClient().unpauseContainerCmd(memcached.getContainerId()).exec();

        awaitHit("/api/v1/comments/1", "cached");
        assertThat(backend.calls("/api/v1/comments/1")).isGreaterThanOrEqualTo(5);
    }

    @Test
    void stopsAskingAHungMemcachedOnceTheBreakerOpensAndRecoversByItself() throws Exception {
        store("/api/v1/comments/3", "cached");
        CircuitBreaker breaker = breakers.circuitBreaker(memcached.getHost() + ":" + HOST_PORT);
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();

        for (int i = 0; i < 30 && breaker.getState() != CircuitBreaker.State.OPEN; i++) {
            client.get()
                .uri("/api/v1/comments/3")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Cache", "ERROR");
        }
        assertThat(breaker.getState()).isEqualTo(CircuitBreaker.State.OPEN);
        long lookupsSoFar = lookupsThatReachedMemcached();

        // The breaker half-opens on time, whatever the requests do: only those answered
        // while it stayed open are judged, so a slow machine shortens the run rather than
        // failing it. Once half-open, its trial lookups rightly time out.
        int answeredWhileOpen = 0;
        for (int i = 0; i < 20; i++) {
            var headers = client.get()
                .uri("/api/v1/comments/3")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Cache", "ERROR")
                .expectBody(String.class)
                .isEqualTo(RecordingBackend.bodyFor("/api/v1/comments/3"))
                .returnResult()
                .getResponseHeaders();
            if (breaker.getState() != CircuitBreaker.State.OPEN) {
                break;
            }
            assertThat(CacheStatusMember.last(headers.get("Cache-Status")).parameters()).containsEntry("detail",
                    "circuit-open");
            assertThat(lookupsThatReachedMemcached()).isEqualTo(lookupsSoFar);
            answeredWhileOpen++;
        }
        assertThat(answeredWhileOpen).as("requests answered while the breaker stayed open")
            .isGreaterThanOrEqualTo(MIN_ANSWERED_WHILE_OPEN);

        memcached.getDockerClient().unpauseContainerCmd(memcached.getContainerId()).exec();
        awaitHit("/api/v1/comments/3", "cached");
        assertThat(breaker.getState()).isIn(CircuitBreaker.State.HALF_OPEN, CircuitBreaker.State.CLOSED);
    }

    private long lookupsThatReachedMemcached() {
        return meters.get("memcached.operations")
            .tag("operation", "get")
            .timers()
            .stream()
            .mapToLong(Timer::count)
            .sum();
    }

    @Test
    void answersFromTheBackendWhileMemcachedIsStoppedAndHitsAgainAfterItStarts() throws Exception {
        memcached.getDockerClient().stopContainerCmd(memcached.getContainerId()).withTimeout(1).exec();

        for (int i = 0; i < 5; i++) {
            client.get()
                .uri("/api/v1/comments/2")
                .exchange()
                .expectStatus()
                .isOk()
                .expectHeader()
                .valueEquals("X-Cache", "ERROR");
        }
        assertThat(backend.calls("/api/v1/comments/2")).isEqualTo(5);

        memcached.getDockerClient().startContainerCmd(memcached.getContainerId()).exec();
        store("/api/v1/comments/2", "back");
        awaitHit("/api/v1/comments/2", "back");
    }

    // The body is the hit's own: a request after it may find the breaker open, since
    // the breaker, counting calls, can reach its minimum sample at that very hit with
    // most of the sample failed while memcached was away.
    private void awaitHit(String path, String body) {
        var hit = Awaitility.await("a HIT for " + path + " after memcached's return")
            // The breaker's 5 s in the open state, then its trial lookups.
            .atMost(Duration.ofSeconds(20))
            .pollInterval(Duration.ofMillis(100))
            .until(() -> client.get().uri(path).exchange().expectBody(String.class).returnResult(),
                    result -> "HIT".equals(result.getResponseHeaders().getFirst("X-Cache")));
        assertThat(hit.getResponseBody()).isEqualTo(body);
    }

    // Retries while a restarted memcached is still coming up.
    private static void store(String key, String value) {
        Awaitility.await("memcached back")
            .atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(100))
            .ignoreExceptionsInstanceOf(IOException.class)
            .until(() -> {
                try (MemcachedTextClient raw = new MemcachedTextClient(memcached.getHost(), HOST_PORT)) {
                    raw.set(key, 0, 0, value.getBytes(StandardCharsets.UTF_8));
                    return true;
                }
            });
    }

    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new IllegalStateException(ex);
        }
    }

}
