package com.example.gateway;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

/**
 * A backend that answers every request with its path, how many body bytes it read and a
 * count of the calls it has answered, cacheable for a minute; a path with {@code /slow/}
 * two seconds late. It keeps the {@code traceparent} of each request it was sent.
 */
final class CountingBackend implements AutoCloseable {

    private final HttpServer server;

    private final AtomicInteger calls = new AtomicInteger();

    private final Queue<String> traceparents = new ConcurrentLinkedQueue<>();

    CountingBackend() {
        try {
            server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        server.createContext("/", this::answer);
        server.start();
    }

    String uri() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    int calls() {
        return calls.get();
    }

    List<String> traceparents() {
        return List.copyOf(traceparents);
    }

    private void answer(HttpExchange exchange) throws IOException {
        String traceparent = exchange.getRequestHeaders().getFirst("traceparent");
        if (traceparent != null) {
            traceparents.add(traceparent);
        }
        if (exchange.getRequestURI().getPath().contains("/slow/")) {
            try {
                Thread.sleep(2000);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
            }
        }
        long received;
        try (InputStream in = exchange.getRequestBody()) {
            received = in.transferTo(OutputStream.nullOutputStream());
        }
        byte[] body = ("{\"path\":\"" + exchange.getRequestURI().getPath() + "\",\"received\":" + received
                + ",\"call\":" + calls.incrementAndGet() + "}")
            .getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.getResponseHeaders().set("Cache-Control", "public, max-age=60");
        exchange.getResponseHeaders().set("X-Backend", "counting");
        exchange.sendResponseHeaders(200, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }

}
