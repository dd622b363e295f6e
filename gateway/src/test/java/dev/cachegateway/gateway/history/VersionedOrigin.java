package dev.cachegateway.gateway.history;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * An origin whose resources carry versions: a GET answers the resource's version and a serial of its own, a PUT
 * bumps the version before it answers. It records every call, so that a history of requests through the gateways
 * can be checked against what the origin really said, and when.
 */
final class VersionedOrigin implements AutoCloseable {

    /** One call the origin answered: a GET's version and serial, or a PUT's new version. */
    record Call(String path, String method, int version, long serial, long startedAt, long answeredAt,
            String language) {
    }

    /** What the paths of resources whose answers vary on Accept-Language hold. */
    static final String VARYING = "/w-";

    private final HttpServer server;

    private final ExecutorService workers = Executors.newCachedThreadPool();

    private final Map<String, AtomicInteger> versions = new ConcurrentHashMap<>();

    private final AtomicLong serials = new AtomicLong();

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    VersionedOrigin() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.setExecutor(workers);
        server.createContext("/", this::handle);
        server.start();
    }

    String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    void reset() {
        versions.clear();
        calls.clear();
    }

    private void handle(HttpExchange exchange) throws IOException {
        long startedAt = System.nanoTime();
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        String language = exchange.getRequestHeaders().getFirst("Accept-Language");
        AtomicInteger version = versions.computeIfAbsent(path, any -> new AtomicInteger(1));
        byte[] body;
        if (method.equals("GET")) {
            int current = version.get();
            long serial = serials.incrementAndGet();
            body = ("{\"path\":\"" + path + "\",\"version\":" + current + ",\"serial\":" + serial + ",\"language\":\""
                    + language + "\"}").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Cache-Control", "public, max-age=120");
            if (path.contains(VARYING)) {
                exchange.getResponseHeaders().set("Vary", "Accept-Language");
            }
            answer(exchange, body);
            calls.add(new Call(path, method, current, serial, startedAt, System.nanoTime(), String.valueOf(language)));
            return;
        }
        // The write takes effect before its answer leaves, as a real one would.
        int written = version.incrementAndGet();
        calls.add(new Call(path, method, written, 0, startedAt, System.nanoTime(), ""));
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        answer(exchange, ("{\"version\":" + written + "}").getBytes(StandardCharsets.UTF_8));
    }

    private static void answer(HttpExchange exchange, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
        exchange.close();
    }

    @Override
    public void close() {
        server.stop(0);
        workers.shutdownNow();
    }
}
