package dev.cachegateway.demo.history;

import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.RequestMix.Step;
import dev.cachegateway.demo.support.PurgeToken;

/**
 * Drives a seeded, bounded mix of requests ({@link RequestMix}) through the gateways,
 * from a few concurrent clients, each request through either gateway, purges through
 * either gateway's invalidation endpoint. The seed decides every choice; the interleaving
 * is the machine's.
 */
final class HistoryDriver {

    /**
     * How long a request may take: a lookup, a lock wait and the backend's timeout, on a
     * loaded machine.
     */
    static final Duration REQUEST_BOUND = Duration.ofSeconds(15);

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

    private final List<String> gateways;

    private final List<String> managements;

    private final AtomicInteger ids = new AtomicInteger();

    /**
     * @param gateways the base URIs of the gateways, as {@code http://localhost:port}
     * @param managements the base URIs of their management ports, in the same order
     */
    HistoryDriver(List<String> gateways, List<String> managements) {
        this.gateways = List.copyOf(gateways);
        this.managements = List.copyOf(managements);
    }

    /**
     * {@code clients} clients, each sending {@code requestsEach} requests one after
     * another; waits for all.
     */
    History run(long seed, int clients, int requestsEach) {
        return run(new History(), seed, clients, requestsEach);
    }

    /** As {@link #run(long, int, int)}, into a history that may record faults as well. */
    History run(History history, long seed, int clients, int requestsEach) {
        ExecutorService threads = Executors.newFixedThreadPool(clients);
        try {
            CompletableFuture<?>[] running = new CompletableFuture<?>[clients];
            for (int c = 0; c < clients; c++) {
                Random random = new Random(seed * 31 + c);
                running[c] = CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < requestsEach; i++) {
                        history.add(send(RequestMix.next(random, gateways.size())));
                        pause(random.nextInt(4));
                    }
                }, threads);
            }
            // Each request has its own deadline, so the whole run has one too.
            CompletableFuture.allOf(running)
                .orTimeout(REQUEST_BOUND.toSeconds() * requestsEach, TimeUnit.SECONDS)
                .join();
            return history;
        }
        finally {
            threads.shutdownNow();
        }
    }

    private Request send(Step step) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(uriOf(step))
            .timeout(step.cancelAfterMillis() > 0 ? Duration.ofMillis(step.cancelAfterMillis()) : REQUEST_BOUND);
        switch (step.method()) {
            case "PUT" -> builder.PUT(HttpRequest.BodyPublishers.ofString("{}"));
            case History.PURGE, History.SOFT_PURGE -> builder.DELETE().header("Authorization", PurgeToken.BEARER);
            default -> builder.GET();
        }
        if (step.language() != null && !step.method().equals(History.PURGE)
                && !step.method().equals(History.SOFT_PURGE)) {
            builder.header("Accept-Language", step.language());
        }
        if (step.conditional()) {
            builder.header("If-None-Match", "\"not-the-current-one\"");
        }
        int id = ids.incrementAndGet();
        long startedAt = System.nanoTime();
        try {
            HttpResponse<String> answer = client.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            return new Request(id, step.gateway(), step.method(), step.path(), step.originPath(), step.language(),
                    startedAt, System.nanoTime(), answer.statusCode(), answer.body(),
                    answer.headers().firstValue("X-Cache").orElse(null),
                    String.join(", ", answer.headers().allValues("Cache-Status")),
                    answer.headers().firstValue("Age").orElse(null), null);
        }
        catch (Exception ex) {
            if (ex instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            long endedAt = System.nanoTime();
            boolean cancelled = gaveUp(step, ex, endedAt - startedAt);
            return new Request(id, step.gateway(), step.method(), step.path(), step.originPath(), step.language(),
                    startedAt, endedAt, 0, null, null, null, null,
                    cancelled ? History.CANCELLED + " after " + step.cancelAfterMillis() + " ms" : ex.toString());
        }
    }

    /**
     * Whether a request that failed after {@code elapsedNanos} is one whose client gave
     * up. The JDK client's timer may fire as the answer's head arrives: it closes the
     * connection under the body, which then fails with an IOException ("fixed
     * content-length: 73, bytes received: 0"), not the HttpTimeoutException of a timer
     * that fired first. Seen with the gateway's write of all 73 bytes complete, 8 ms
     * after the client's 52 ms deadline.
     */
    static boolean gaveUp(Step step, Exception failure, long elapsedNanos) {
        return step.cancelAfterMillis() > 0 && (failure instanceof HttpTimeoutException
                || elapsedNanos >= TimeUnit.MILLISECONDS.toNanos(step.cancelAfterMillis()));
    }

    // A purge goes to the gateway's management port: by path on the body route; by key
    // on the whole-answer route, or, where the step was drawn in French, by the tag of
    // the resource's own that the origin gives its answers there.
    private URI uriOf(Step step) {
        if (!step.method().equals(History.PURGE) && !step.method().equals(History.SOFT_PURGE)) {
            return URI.create(gateways.get(step.gateway()) + step.path());
        }
        String management = managements.get(step.gateway()) + "/actuator/memcached";
        String soft = step.method().equals(History.SOFT_PURGE) ? "soft=true" : "";
        if (step.path().equals(step.originPath())) {
            return URI.create(management + step.originPath() + (soft.isEmpty() ? "" : "?" + soft));
        }
        String named = "fr".equals(step.language()) ? "?tag=" + VersionedOrigin.tagOf(step.originPath())
                : "?key=" + URLEncoder.encode(step.purgedKey(), StandardCharsets.UTF_8);
        return URI.create(management + named + (soft.isEmpty() ? "" : "&" + soft));
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
