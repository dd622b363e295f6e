package dev.cachegateway.gateway.history;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cachegateway.gateway.history.History.Request;

/**
 * Drives a seeded, bounded mix of requests through the gateways, from a few concurrent clients: GETs of hot and
 * cold resources on the body route, GETs of two variants of resources on the whole-answer route, conditional GETs,
 * and writes, each through either gateway. The seed decides every choice; the interleaving is the machine's.
 */
final class HistoryDriver {

    /** How long a request may take: a lookup, a lock wait and the backend's timeout, on a loaded machine. */
    static final Duration REQUEST_BOUND = Duration.ofSeconds(15);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final List<String> gateways;

    private final AtomicInteger ids = new AtomicInteger();

    /** @param gateways the base URIs of the gateways, as {@code http://localhost:port} */
    HistoryDriver(List<String> gateways) {
        this.gateways = List.copyOf(gateways);
    }

    /** {@code clients} clients, each sending {@code requestsEach} requests one after another; waits for all. */
    History run(long seed, int clients, int requestsEach) {
        History history = new History();
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            CompletableFuture<?>[] running = new CompletableFuture<?>[clients];
            for (int c = 0; c < clients; c++) {
                Random random = new Random(seed * 31 + c);
                running[c] = CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < requestsEach; i++) {
                        history.add(send(random));
                        pause(random.nextInt(4));
                    }
                }, threads);
            }
            // Each request has its own deadline, so the whole run has one too.
            CompletableFuture.allOf(running).orTimeout(REQUEST_BOUND.toSeconds() * requestsEach, TimeUnit.SECONDS)
                    .join();
            return history;
        }
        finally {
            threads.shutdownNow();
        }
    }

    private Request send(Random random) {
        int gateway = random.nextInt(gateways.size());
        boolean varying = random.nextInt(4) == 0;
        // A few hot resources, shared by every client, and a longer tail of cold ones.
        int resource = random.nextInt(3) == 0 ? random.nextInt(12) : random.nextInt(3);
        String originPath = "/api/v1/comments/" + (varying ? "w-" : "b-") + resource;
        String path = varying ? originPath.replace("/api/v1/", "/api/v1/whole/") : originPath;
        String language = varying ? (random.nextBoolean() ? "en" : "fr") : null;
        int kind = random.nextInt(20);
        String method = kind < 3 ? "PUT" : "GET";
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(gateways.get(gateway) + path))
                .timeout(REQUEST_BOUND);
        builder = method.equals("PUT") ? builder.PUT(HttpRequest.BodyPublishers.ofString("{}")) : builder.GET();
        if (language != null) {
            builder.header("Accept-Language", language);
        }
        if (method.equals("GET") && kind == 3) {
            builder.header("If-None-Match", "\"not-the-current-one\"");
        }
        int id = ids.incrementAndGet();
        long startedAt = System.nanoTime();
        try {
            HttpResponse<String> answer = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Request(id, gateway, method, path, originPath, language, startedAt, System.nanoTime(),
                    answer.statusCode(), answer.body(), answer.headers().firstValue("X-Cache").orElse(null),
                    String.join(", ", answer.headers().allValues("Cache-Status")),
                    answer.headers().firstValue("Age").orElse(null), null);
        }
        catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            return new Request(id, gateway, method, path, originPath, language, startedAt, System.nanoTime(), 0,
                    null, null, null, null, ex.toString());
        }
    }

    private static void pause(int millis) {
        try {
            Thread.sleep(millis);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }
}
