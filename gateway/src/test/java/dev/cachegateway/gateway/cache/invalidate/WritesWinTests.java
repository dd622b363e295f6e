package dev.cachegateway.gateway.cache.invalidate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import com.github.dockerjava.api.DockerClient;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;

/**
 * A write wins, on the gateway it went through and on another that shares memcached: a
 * GET that was on its way to the backend when the write came may answer the requests that
 * joined it, but never stores its answer over the write, and no request that arrives
 * after the write's answer joins it. The GET always goes through the first gateway, the
 * write through the first or the second.
 */
class WritesWinTests {

    static final GatewayPair pair = GatewayPair.shared();

    static final RecordingBackend backend = pair.backend();

    static final ConfigurableApplicationContext first = pair.first();

    static final ConfigurableApplicationContext second = pair.second();

    static final ConcurrentGets gets = new ConcurrentGets();

    static final HttpClient writer = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    // The resource's version: a write bumps it, and every answer the backend makes
    // carries the one it read.
    final AtomicInteger version = new AtomicInteger(1);

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        pair.reset();
    }

    @ParameterizedTest(name = "write through the {0} gateway")
    @ValueSource(strings = { "same", "other" })
    void aLeadThatBeganBeforeAWriteNeverStoresOverIt(String writeThrough) throws Exception {
        String path = "/api/v1/comments/41-" + writeThrough;
        CompletableFuture<ResponseEntity<byte[]>> lead = slowLead(path);

        write(writeThrough, path);

        assertThat(body(lead.get(15, TimeUnit.SECONDS))).isEqualTo(versioned(1));
        awaitLeadEnded(path);
        assertThat(storedBody(path)).isNotEqualTo(versioned(1));
        assertThat(body(get(first, path))).isEqualTo(versioned(2));
        assertThat(body(get(second, path))).isEqualTo(versioned(2));
    }

    @ParameterizedTest(name = "write through the {0} gateway")
    @ValueSource(strings = { "same", "other" })
    void aRequestAfterAWriteDoesNotJoinALeadFromBeforeIt(String writeThrough) throws Exception {
        String path = "/api/v1/comments/43-" + writeThrough;
        CompletableFuture<ResponseEntity<byte[]>> lead = slowLead(path);

        write(writeThrough, path);
        assertThat(lead.isDone()).as("the lead is still in flight when the write is answered").isFalse();
        ResponseEntity<byte[]> after = get(first, path);

        assertThat(body(after)).isEqualTo(versioned(2));
        assertThat(body(lead.get(15, TimeUnit.SECONDS))).isEqualTo(versioned(1));
    }

    @Test
    void aRequestAfterAWriteDoesNotJoinALeadFromBeforeItWhenMemcachedFailsSince() throws Exception {
        String path = "/api/v1/comments/44";
        // Within the lock timeout, so that a request that joins it waits for its answer.
        CompletableFuture<ResponseEntity<byte[]>> lead = slowLead(path, GatewayPair.LOCK_TIMEOUT.minusMillis(500));

        // The write marks memcached, which then times out the request's read of the mark.
        write("other", path);
        DockerClient docker = pair.memcached().getDockerClient();
        docker.pauseContainerCmd(pair.memcached().getContainerId()).exec();
        ResponseEntity<byte[]> after;
        try {
            assertThat(lead.isDone()).as("the lead is still in flight when memcached fails").isFalse();
            after = get(first, path);
        }
        finally {
            docker.unpauseContainerCmd(pair.memcached().getContainerId()).exec();
        }

        assertThat(body(after)).isEqualTo(versioned(2));
        assertThat(body(lead.get(15, TimeUnit.SECONDS))).isEqualTo(versioned(1));
    }

    @Test
    void aWriteThatMemcachedMissedIsInvalidatedOnceMemcachedAnswersAgain() throws Exception {
        String path = "/api/v1/comments/45";
        backend.replyByCall(path, call -> Reply.json(versioned(version.get()), "public, max-age=60"));
        assertThat(body(get(first, path))).isEqualTo(versioned(1));
        await().atMost(Duration.ofSeconds(10)).until(() -> storedBody(path).equals(versioned(1)));

        // Paused, memcached times lookups out until the second gateway's breaker opens;
        // the write's mark and delete then never reach memcached, and the write is
        // answered all the same.
        DockerClient docker = pair.memcached().getDockerClient();
        docker.pauseContainerCmd(pair.memcached().getContainerId()).exec();
        try {
            await().atMost(Duration.ofSeconds(30)).until(() -> {
                gets.getAll(12, i -> GatewayReplicas.uri(second, "/api/v1/comments/breaker-" + i));
                return breakerOpen(second);
            });
            write("other", path);
        }
        finally {
            docker.unpauseContainerCmd(pair.memcached().getContainerId()).exec();
        }

        // Not until the item expires: once memcached answers, and the breaker lets the
        // write's gateway through.
        await().atMost(Duration.ofSeconds(10)).until(() -> !storedBody(path).equals(versioned(1)));
        assertThat(body(get(first, path))).isEqualTo(versioned(2));
    }

    private static boolean breakerOpen(ConfigurableApplicationContext gateway) {
        return gateway.getBean(CircuitBreakerRegistry.class)
            .getAllCircuitBreakers()
            .stream()
            .anyMatch(breaker -> breaker.getState() == CircuitBreaker.State.OPEN);
    }

    private CompletableFuture<ResponseEntity<byte[]>> slowLead(String path) {
        return slowLead(path, Duration.ofMillis(1500));
    }

    // Through the first gateway. The first call, this GET, reads version 1 and answers
    // after the delay; every later call answers the version it reads.
    private CompletableFuture<ResponseEntity<byte[]>> slowLead(String path, Duration delay) {
        backend.replyByCall(path, call -> {
            Reply reply = Reply.json(versioned(version.get()), "public, max-age=60");
            return call == 1 ? reply.after(delay) : reply;
        });
        CompletableFuture<ResponseEntity<byte[]>> lead = gets.get(GatewayReplicas.uri(first, path)).toFuture();
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);
        return lead;
    }

    private void write(String through, String path) throws Exception {
        version.incrementAndGet();
        ConfigurableApplicationContext gateway = through.equals("same") ? first : second;
        HttpRequest put = HttpRequest.newBuilder(URI.create(GatewayReplicas.uri(gateway, path)))
            .PUT(HttpRequest.BodyPublishers.ofString("{}"))
            .timeout(Duration.ofSeconds(10))
            .build();
        assertThat(writer.send(put, HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(200);
    }

    // A lead lets its lock go once its store has ended, whatever became of the store.
    private static void awaitLeadEnded(String path) {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try (MemcachedTextClient raw = MemcachedContainer.textClient(pair.memcached())) {
                return raw.get(path + LockKey.SUFFIX) == null;
            }
        });
    }

    private static String storedBody(String path) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(pair.memcached())) {
            MemcachedTextClient.Item item = raw.get(path);
            return item == null ? "" : new String(item.value(), StandardCharsets.UTF_8);
        }
    }

    private static ResponseEntity<byte[]> get(ConfigurableApplicationContext gateway, String path) {
        return gets.get(GatewayReplicas.uri(gateway, path)).block(Duration.ofSeconds(15));
    }

    private static String body(ResponseEntity<byte[]> answer) {
        return new String(answer.getBody(), StandardCharsets.UTF_8);
    }

    private static String versioned(int version) {
        return "{\"version\":" + version + "}";
    }

}
