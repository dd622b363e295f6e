package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayPair;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RawHttp;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;

/**
 * A leading miss whose client goes away before the backend answers still finishes its
 * fetch and stores the answer, as Varnish does: the requests that joined it get its
 * answer, and the same key asked again, through this gateway or another, costs no second
 * backend call.
 */
class AbandonedLeadTests {

    static final Duration BACKEND_DELAY = Duration.ofMillis(800);

    static final GatewayPair pair = GatewayPair.shared();

    static final RecordingBackend backend = pair.backend();

    static final ConfigurableApplicationContext first = pair.first();

    static final ConfigurableApplicationContext second = pair.second();

    static final ConcurrentGets gets = new ConcurrentGets();

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        pair.reset();
    }

    @ParameterizedTest(name = "the client leaves after {0} ms")
    @ValueSource(ints = { 20, 50, 300 })
    void aLeadWhoseClientLeftStoresItsAnswerForTheOtherGateway(int leavesAfter) throws Exception {
        String path = "/api/v1/comments/abandoned-" + leavesAfter;
        backend.reply(path, Reply.json(RecordingBackend.bodyFor(path), "public, max-age=60").after(BACKEND_DELAY));

        leaveAfter(first, path, Duration.ofMillis(leavesAfter));
        ResponseEntity<byte[]> next = gets.get(GatewayReplicas.uri(second, path)).block(Duration.ofSeconds(15));

        assertThat(new String(next.getBody(), StandardCharsets.UTF_8)).isEqualTo(RecordingBackend.bodyFor(path));
        assertThat(backend.calls(path)).as("backend calls for a key whose first client left").isEqualTo(1);
    }

    @ParameterizedTest(name = "the client leaves after {0} ms")
    @ValueSource(ints = { 20, 300 })
    void aLeadWhoseClientLeftStoresItsAnswerForItsOwnGateway(int leavesAfter) throws Exception {
        String path = "/api/v1/comments/abandoned-own-" + leavesAfter;
        backend.reply(path, Reply.json(RecordingBackend.bodyFor(path), "public, max-age=60").after(BACKEND_DELAY));

        leaveAfter(first, path, Duration.ofMillis(leavesAfter));
        // After the backend answered: the answer is in memcached, not only shared with
        // requests that waited.
        await().atMost(Duration.ofSeconds(10)).until(() -> stored(path));
        ResponseEntity<byte[]> next = gets.get(GatewayReplicas.uri(first, path)).block(Duration.ofSeconds(15));

        assertThat(new String(next.getBody(), StandardCharsets.UTF_8)).isEqualTo(RecordingBackend.bodyFor(path));
        // Its Cache-Status says why, should it ever not be a hit.
        assertThat(next.getHeaders().getFirst("X-Cache")).as("%s", next.getHeaders().get("Cache-Status"))
            .isEqualTo("HIT");
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void requestsThatJoinedALeadWhoseClientLeftGetItsAnswer() throws Exception {
        String path = "/api/v1/comments/abandoned-joined";
        backend.reply(path, Reply.json(RecordingBackend.bodyFor(path), "public, max-age=60").after(BACKEND_DELAY));

        CompletableFuture<Void> leader = CompletableFuture.runAsync(() -> leaveQuietly(path));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);
        List<ResponseEntity<byte[]>> joined = gets.getAll(5, i -> GatewayReplicas.uri(first, path));
        leader.get(10, TimeUnit.SECONDS);

        assertThat(joined).hasSize(5)
            .allSatisfy(answer -> assertThat(new String(answer.getBody(), StandardCharsets.UTF_8))
                .isEqualTo(RecordingBackend.bodyFor(path)));
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    private static void leaveQuietly(String path) {
        try {
            leaveAfter(first, path, Duration.ofMillis(50));
        }
        catch (IOException | InterruptedException ex) {
            throw new IllegalStateException(ex);
        }
    }

    // Sends the GET, waits until the backend has it, then a while longer, and closes the
    // connection unanswered.
    private static void leaveAfter(ConfigurableApplicationContext gateway, String path, Duration wait)
            throws IOException, InterruptedException {
        try (Socket socket = new Socket("localhost", URI.create(GatewayReplicas.uri(gateway, "")).getPort())) {
            socket.getOutputStream().write(RawHttp.request("GET " + path + " HTTP/1.1", "Host: localhost"));
            socket.getOutputStream().flush();
            await().atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);
            Thread.sleep(wait.toMillis());
        }
    }

    private static boolean stored(String path) throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(pair.memcached())) {
            return raw.get(path) != null;
        }
    }

}
