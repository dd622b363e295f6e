package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A backend over a plain TCP socket that keeps every byte the gateway sends it and reads
 * them with {@link StrictHttp}: each request it can read is recorded and answered 200
 * with a cacheable JSON body naming the request's target and the names of its fields (so
 * that a field that reaches it changes the answer), and {@code X-Seen: <target>}. Bytes
 * that are no request are recorded as a violation, and the connection is closed.
 */
public final class ByteRecordingBackend extends SocketBackend {

    private final List<StrictHttp.Request> requests = new CopyOnWriteArrayList<>();

    private final List<String> violations = new CopyOnWriteArrayList<>();

    private final List<ByteArrayOutputStream> connections = new CopyOnWriteArrayList<>();

    public ByteRecordingBackend() throws IOException {
    }

    /**
     * For static fields, where a checked exception cannot be thrown; it stops when the
     * JVM does.
     */
    public static ByteRecordingBackend startQuietly() {
        return startQuietly(ByteRecordingBackend::new);
    }

    /** Every request read so far, in the order they arrived. */
    public List<StrictHttp.Request> requests() {
        return List.copyOf(requests);
    }

    /**
     * The bytes that were no request, each with why, and the connection's bytes up to
     * them.
     */
    public List<String> violations() {
        return List.copyOf(violations);
    }

    /** Connections holding bytes of a request not yet complete. */
    public long connectionsWithPartialRequests() {
        return connections.stream().filter(bytes -> {
            StrictHttp.Reading reading = StrictHttp.read(bytes.toByteArray());
            return reading.error() == null && reading.consumed() < bytes.size();
        }).count();
    }

    public void reset() {
        requests.clear();
        violations.clear();
    }

    @Override
    protected void serve(Socket socket) {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        connections.add(received);
        int answered = 0;
        try (socket) {
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                StrictHttp.Reading reading;
                synchronized (received) {
                    received.write(buffer, 0, n);
                    reading = StrictHttp.read(received.toByteArray());
                }
                for (; answered < reading.requests().size(); answered++) {
                    StrictHttp.Request request = reading.requests().get(answered);
                    requests.add(request);
                    socket.getOutputStream().write(answer(request));
                }
                socket.getOutputStream().flush();
                if (reading.error() != null) {
                    violations.add(reading.error() + " in: " + received.toString(StandardCharsets.ISO_8859_1));
                    return;
                }
            }
        }
        catch (IOException ex) {
            // The gateway closed the connection: nothing more to read.
        }
    }

    private static byte[] answer(StrictHttp.Request request) {
        TreeSet<String> names = new TreeSet<>();
        request.fields().stream().map(Map.Entry::getKey).forEach(names::add);
        String body = "{\"target\":\"" + request.target().replace("\"", "%22") + "\",\"fields\":\""
                + String.join(",", names).toLowerCase(Locale.ROOT) + "\"}";
        byte[] bytes = body.getBytes(StandardCharsets.ISO_8859_1);
        String head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nCache-Control: public, max-age=60\r\n"
                + "X-Seen: " + request.target() + "\r\nContent-Length: " + bytes.length + "\r\n\r\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes(head.getBytes(StandardCharsets.ISO_8859_1));
        out.writeBytes(bytes);
        return out.toByteArray();
    }

}
