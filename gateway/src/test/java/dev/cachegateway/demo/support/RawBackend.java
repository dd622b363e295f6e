package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import org.awaitility.Awaitility;

/**
 * A backend over a plain TCP socket that writes exactly the bytes it is told to, for
 * answers no HTTP server would send: interim 1xx answers, a body longer than its
 * Content-Length, a connection closed as it is reused. Each path has a script that gets
 * the request's number for its path and on its connection (1 for the first) and says what
 * to write and whether to close the connection afterwards. It reads request heads only;
 * request bodies are not expected.
 */
public final class RawBackend extends SocketBackend {

    /**
     * What to do with one request: write {@code bytes}, then close the connection or keep
     * it for the next one; a connection closed with {@code abort} ends with a TCP reset,
     * as a server that crashed or dropped it does.
     */
    public record Answer(byte[] bytes, boolean close, boolean abort) {

        public static Answer of(String text) {
            return new Answer(text.getBytes(StandardCharsets.ISO_8859_1), false, false);
        }

        /** Close without answering. */
        public static Answer hangUp() {
            return new Answer(new byte[0], true, false);
        }

        /** Reset the connection without answering. */
        public static Answer resetConnection() {
            return new Answer(new byte[0], true, true);
        }

        public Answer thenClose() {
            return new Answer(bytes, true, false);
        }
    }

    /** The script of one path. */
    @FunctionalInterface
    public interface Script {

        Answer answer(int requestOnPath, int requestOnConnection);

    }

    private final Map<String, Script> scripts = new ConcurrentHashMap<>();

    private final Map<String, AtomicInteger> requests = new ConcurrentHashMap<>();

    private final AtomicInteger connections = new AtomicInteger();

    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    public RawBackend() throws IOException {
    }

    /**
     * For static fields, where a checked exception cannot be thrown; it stops when the
     * JVM does.
     */
    public static RawBackend startQuietly() {
        return startQuietly(RawBackend::new);
    }

    public void script(String path, Script script) {
        scripts.put(path, script);
    }

    /** How many requests for {@code path} arrived, over all connections. */
    public int requests(String path) {
        AtomicInteger count = requests.get(path);
        return count != null ? count.get() : 0;
    }

    /** How many connections the backend has accepted. */
    public int connections() {
        return connections.get();
    }

    /**
     * Ends every open connection, as a backend that restarts would, and waits (up to 5 s)
     * until the gateway has closed its side too, so that the next request opens a new
     * one.
     */
    public void closeConnections() {
        for (Socket socket : open) {
            try {
                socket.shutdownOutput();
            }
            catch (IOException ex) {
                // Already closing.
            }
        }
        Awaitility.await("the gateway closing its side of the backend connections")
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(50))
            .until(open::isEmpty);
    }

    @Override
    protected void accepted() {
        connections.incrementAndGet();
    }

    @Override
    protected void serve(Socket socket) {
        open.add(socket);
        try (socket) {
            InputStream in = socket.getInputStream();
            for (int number = 1;; number++) {
                String head = readHead(in);
                if (head == null) {
                    return;
                }
                String path = head.split(" ", 3)[1];
                int onPath = requests.computeIfAbsent(path, any -> new AtomicInteger()).incrementAndGet();
                Script script = scripts.getOrDefault(path,
                        (n, m) -> Answer.of("HTTP/1.1 404 Not Found\r\n" + "Content-Length: 0\r\n\r\n"));
                Answer answer = script.answer(onPath, number);
                socket.getOutputStream().write(answer.bytes());
                socket.getOutputStream().flush();
                if (answer.close()) {
                    // A linger of zero makes close send a reset rather than an orderly
                    // end.
                    socket.setSoLinger(answer.abort(), 0);
                    return;
                }
            }
        }
        catch (SocketException ex) {
            // The gateway closed the connection: nothing more to answer.
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
        finally {
            open.remove(socket);
        }
    }

    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        for (int b = in.read(); b != -1; b = in.read()) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return head.toString(StandardCharsets.ISO_8859_1);
            }
        }
        return null;
    }

}
