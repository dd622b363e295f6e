package dev.cachegateway.demo.support;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A real HTTP backend for the gateway under test. It counts the requests it gets per path
 * and answers each path as told: any status, any headers, any body, after any delay.
 * Unless told otherwise it answers like comments-service: 200, JSON,
 * {@code Cache-Control: public, max-age=60}.
 */
public final class RecordingBackend extends TestBackend {

    private final HttpServer server;

    private final ExecutorService workers = Executors.newCachedThreadPool();

    private final Map<String, AtomicInteger> calls = new ConcurrentHashMap<>();

    private final Map<String, IntFunction<Reply>> replies = new ConcurrentHashMap<>();

    private final Map<String, Map<String, List<String>>> lastHeaders = new ConcurrentHashMap<>();

    /** What the backend answers on one path. */
    public record Reply(int status, Map<String, List<String>> headers, byte[] body, Duration delay) {

        public static Reply json(String body, String cacheControl) {
            return new Reply(200,
                    Map.of("Content-Type", List.of("application/json"), "Cache-Control", List.of(cacheControl)),
                    body.getBytes(StandardCharsets.UTF_8), Duration.ZERO);
        }

        public Reply withHeader(String name, String value) {
            Map<String, List<String>> more = new HashMap<>(headers);
            more.put(name, List.of(value));
            return new Reply(status, Map.copyOf(more), body, delay);
        }

        public Reply withStatus(int newStatus) {
            return new Reply(newStatus, headers, body, delay);
        }

        public Reply withBody(byte[] newBody) {
            return new Reply(status, headers, newBody, delay);
        }

        public Reply after(Duration newDelay) {
            return new Reply(status, headers, body, newDelay);
        }
    }

    public RecordingBackend() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 100);
        server.setExecutor(workers);
        server.createContext("/", this::handle);
        server.start();
    }

    /**
     * For static fields, where a checked exception cannot be thrown; it stops when the
     * JVM does.
     */
    public static RecordingBackend startQuietly() {
        return startQuietly(RecordingBackend::new);
    }

    @Override
    protected int port() {
        return server.getAddress().getPort();
    }

    public void reply(String path, Reply reply) {
        replies.put(path, call -> reply);
    }

    /** Answers each call to {@code path} by its number: 1 for the first. */
    public void replyByCall(String path, IntFunction<Reply> byCall) {
        replies.put(path, byCall);
    }

    /** How many requests reached {@code path}. */
    public int calls(String path) {
        AtomicInteger count = calls.get(path);
        return count != null ? count.get() : 0;
    }

    /** A header of the last request that reached {@code path}, or null. */
    public String lastRequestHeader(String path, String name) {
        Map<String, List<String>> headers = lastHeaders.getOrDefault(path, Map.of());
        return headers.entrySet()
            .stream()
            .filter(header -> header.getKey().equalsIgnoreCase(name))
            .map(header -> String.join(", ", header.getValue()))
            .findFirst()
            .orElse(null);
    }

    public int totalCalls() {
        return calls.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    public void reset() {
        calls.clear();
        replies.clear();
        lastHeaders.clear();
    }

    public static String bodyFor(String path) {
        return "{\"path\":\"" + path + "\"}";
    }

    private void handle(HttpExchange exchange) throws IOException {
        String path = exchange.getRequestURI().getRawPath();
        lastHeaders.put(path, Map.copyOf(exchange.getRequestHeaders()));
        int call = calls.computeIfAbsent(path, any -> new AtomicInteger()).incrementAndGet();
        IntFunction<Reply> byCall = replies.get(path);
        Reply reply = byCall != null ? byCall.apply(call) : Reply.json(bodyFor(path), "public, max-age=60");
        try {
            Thread.sleep(reply.delay().toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
        reply.headers().forEach((name, values) -> exchange.getResponseHeaders().put(name, values));
        boolean head = exchange.getRequestMethod().equals("HEAD");
        exchange.sendResponseHeaders(reply.status(), head || reply.body().length == 0 ? -1 : reply.body().length);
        if (!head) {
            try (OutputStream body = exchange.getResponseBody()) {
                body.write(reply.body());
            }
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }

}
