package dev.cachegateway.gateway.overload;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;

/**
 * Requests whose backend calls are held open until released, so that a test knows how
 * many are in flight.
 */
final class HeldBackend implements AutoCloseable {

    // The answers of one test are stored after they are sent, and may land after the next
    // test empties memcached: each test asks for paths of its own.
    private static final AtomicInteger ids = new AtomicInteger(10_000);

    private final RecordingBackend backend;

    private final int port;

    private final CountDownLatch release = new CountDownLatch(1);

    private final List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();

    private final HttpClient client = HttpClient.newHttpClient();

    HeldBackend(RecordingBackend backend, int port) {
        this.backend = backend;
        this.port = port;
    }

    /** A comments path that no test has asked for yet, ending with {@code suffix}. */
    static String freshPath(String suffix) {
        return "/api/v1/comments/" + ids.incrementAndGet() + suffix;
    }

    /** Sends a GET of {@code path}, whose backend call is held until {@link #close}. */
    CompletableFuture<HttpResponse<String>> hold(String path) {
        backend.replyByCall(path, call -> {
            try {
                release.await(30, TimeUnit.SECONDS);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
            return Reply.json(RecordingBackend.bodyFor(path), "public, max-age=60");
        });
        CompletableFuture<HttpResponse<String>> answer = client
            .sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                .timeout(Duration.ofSeconds(30))
                .build(), HttpResponse.BodyHandlers.ofString());
        held.add(answer);
        return answer;
    }

    /** Lets every held call answer, and waits for their answers. */
    List<HttpResponse<String>> release() {
        release.countDown();
        return held.stream().map(answer -> answer.orTimeout(30, TimeUnit.SECONDS).join()).toList();
    }

    /**
     * Lets every held call answer and waits for the answers: until they are sent, their
     * requests still count against the limits, and would turn away the next test's.
     */
    @Override
    public void close() {
        release();
    }

}
