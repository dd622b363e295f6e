package dev.cachegateway.demo.history;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
 * An origin whose resources carry versions: a GET answers the resource's version and a
 * serial of its own, a PUT bumps the version before it answers. Each answer has an ETag
 * of its version and language, and a conditional GET that names the current one is
 * answered 304, as a cache's revalidation of a stale whole answer asks. It records every
 * call it answered with a 200 or a 304, so that a history of requests through the
 * gateways can be checked against what the origin really said, and when. Some resources
 * expire within a run, and some carry an {@code Age} of their own ({@link #maxAge},
 * {@link #upstreamAge}). A fault can make it slow (every answer delayed), failing (every
 * answer a 503, no write taking effect) or gone (its port closed, then opened again).
 */
final class VersionedOrigin implements AutoCloseable {

    /**
     * One call the origin answered: a GET's version and serial, a revalidation's
     * ({@link #REVALIDATED}, serial 0) version, or a PUT's new version.
     */
    record Call(String path, String method, int version, long serial, long startedAt, long answeredAt,
            String language) {

        @Override
        public String toString() {
            return String.format("origin %s %s %s v%d s%d [%.1f..%.1f ms]", method, path, language, version, serial,
                    startedAt / 1e6 % 1e6, answeredAt / 1e6 % 1e6);
        }
    }

    /** The method of a call answered 304. */
    static final String REVALIDATED = "REVALIDATED";

    /** What the paths of resources whose answers vary on Accept-Language hold. */
    static final String VARYING = "/w-";

    /** How it answers while no fault makes it go away. */
    enum Mode {

        WELL, SLOW, FAILING

    }

    private HttpServer server;

    private final int port;

    private volatile Mode mode = Mode.WELL;

    private volatile Duration slowBy = Duration.ZERO;

    private final ExecutorService workers = Executors.newCachedThreadPool();

    private final Map<String, AtomicInteger> versions = new ConcurrentHashMap<>();

    private final AtomicLong serials = new AtomicLong();

    private final List<Call> calls = new CopyOnWriteArrayList<>();

    VersionedOrigin() {
        server = listen(0);
        port = server.getAddress().getPort();
    }

    private HttpServer listen(int on) {
        try {
            HttpServer listening = HttpServer.create(new InetSocketAddress("127.0.0.1", on), 200);
            listening.setExecutor(workers);
            listening.createContext("/", this::handle);
            listening.start();
            return listening;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * The max-age a resource is answered with: short for the last cold ones and for one
     * hot varying one, so that they expire, and whole answers are revalidated, within
     * even the shortest history.
     */
    static int maxAge(String path) {
        return resource(path) >= 9 || path.endsWith(VARYING + "2") ? 1 : 120;
    }

    /**
     * The Age a resource is answered with, as a cache in front of the origin would send
     * it: every third of the long-lived ones (an Age past a short max-age would make the
     * origin's answer stale already).
     */
    static int upstreamAge(String path) {
        return resource(path) % 3 == 1 && maxAge(path) > 5 ? 5 : 0;
    }

    private static int resource(String path) {
        String number = path.substring(path.lastIndexOf('-') + 1);
        return number.chars().allMatch(Character::isDigit) && !number.isEmpty() ? Integer.parseInt(number) : -1;
    }

    String uri() {
        return "http://127.0.0.1:" + port;
    }

    /** Delays every answer by {@code delay} while {@code mode} is {@link Mode#SLOW}. */
    void answer(Mode mode, Duration delay) {
        this.slowBy = delay;
        this.mode = mode;
    }

    /** Closes its port and the connections to it, so that new ones are refused. */
    synchronized void refuse() {
        server.stop(0);
    }

    /** Listens on its port again. */
    synchronized void reopen() {
        server = listen(port);
    }

    List<Call> calls() {
        return List.copyOf(calls);
    }

    void reset() {
        versions.clear();
        calls.clear();
    }

    /** The tag of its own that a resource's answers carry: its last path segment. */
    static String tagOf(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    private void handle(HttpExchange exchange) throws IOException {
        long startedAt = System.nanoTime();
        String path = exchange.getRequestURI().getRawPath();
        String method = exchange.getRequestMethod();
        String language = exchange.getRequestHeaders().getFirst("Accept-Language");
        AtomicInteger version = versions.computeIfAbsent(path, any -> new AtomicInteger(1));
        Mode now = mode;
        if (now == Mode.FAILING) {
            answer(exchange, 503, "{\"error\":\"failing\"}".getBytes(StandardCharsets.UTF_8));
            return;
        }
        byte[] body;
        if (method.equals("GET")) {
            int current = version.get();
            String etag = "\"v" + current + "-" + language + "\"";
            exchange.getResponseHeaders().set("ETag", etag);
            exchange.getResponseHeaders().set("Cache-Control", "public, max-age=" + maxAge(path));
            if (upstreamAge(path) > 0) {
                exchange.getResponseHeaders().set("Age", Integer.toString(upstreamAge(path)));
            }
            if (path.contains(VARYING)) {
                exchange.getResponseHeaders().set("Vary", "Accept-Language");
                // Its whole answers are purged by this tag too (HistoryDriver).
                exchange.getResponseHeaders().set("Surrogate-Key", "comments " + tagOf(path));
            }
            String asked = exchange.getRequestHeaders().getFirst("If-None-Match");
            if (asked != null && asked.contains(etag)) {
                slowIf(now);
                exchange.sendResponseHeaders(304, -1);
                exchange.close();
                calls.add(new Call(path, REVALIDATED, current, 0, startedAt, System.nanoTime(),
                        String.valueOf(language)));
                return;
            }
            long serial = serials.incrementAndGet();
            body = ("{\"path\":\"" + path + "\",\"version\":" + current + ",\"serial\":" + serial + ",\"language\":\""
                    + language + "\"}")
                .getBytes(StandardCharsets.UTF_8);
            // A slow origin read its version when the call came in, as a real one reads
            // its store.
            slowIf(now);
            answer(exchange, body);
            calls.add(new Call(path, method, current, serial, startedAt, System.nanoTime(), String.valueOf(language)));
            return;
        }
        // The write takes effect before its answer leaves, as a real one would.
        int written = version.incrementAndGet();
        calls.add(new Call(path, method, written, 0, startedAt, System.nanoTime(), ""));
        exchange.getResponseHeaders().set("Cache-Control", "no-store");
        slowIf(now);
        answer(exchange, ("{\"version\":" + written + "}").getBytes(StandardCharsets.UTF_8));
    }

    private static void answer(HttpExchange exchange, byte[] body) throws IOException {
        answer(exchange, 200, body);
    }

    private static void answer(HttpExchange exchange, int status, byte[] body) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
        exchange.close();
    }

    private void slowIf(Mode now) {
        if (now != Mode.SLOW) {
            return;
        }
        try {
            Thread.sleep(slowBy.toMillis());
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public synchronized void close() {
        server.stop(0);
        workers.shutdownNow();
    }

}
