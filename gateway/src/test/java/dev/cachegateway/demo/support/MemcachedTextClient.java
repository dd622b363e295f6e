package dev.cachegateway.demo.support;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import org.awaitility.Awaitility;

/**
 * memcached's text protocol over a plain socket, byte for byte as
 * {@code printf 'set ...' | nc} would speak it: the other client that the gateway must
 * interoperate with, and a witness that no test trusts spymemcached for.
 */
public final class MemcachedTextClient implements AutoCloseable {

    private final Socket socket;

    private final OutputStream out;

    private final InputStream in;

    public MemcachedTextClient(String host, int port) throws IOException {
        this.socket = new Socket(host, port);
        this.socket.setSoTimeout(5_000);
        // A command goes out in one segment: written in pieces, Nagle's algorithm held
        // each piece after the first until memcached's delayed ack, some 40 ms a
        // command.
        this.socket.setTcpNoDelay(true);
        this.out = new BufferedOutputStream(socket.getOutputStream());
        this.in = new BufferedInputStream(socket.getInputStream());
    }

    /** An item as read back: the raw value and flags. */
    public record Item(byte[] value, int flags) {
    }

    public void set(String key, int flags, int ttlSeconds, byte[] value) throws IOException {
        send(("set " + key + " " + flags + " " + ttlSeconds + " " + value.length + "\r\n")
            .getBytes(StandardCharsets.UTF_8), value, "\r\n".getBytes(StandardCharsets.US_ASCII));
        expectLine("STORED");
    }

    /** Sends a storage command exactly as written, as {@code printf '...' | nc} would. */
    public void setLiterally(String command) throws IOException {
        send(command.getBytes(StandardCharsets.UTF_8));
        expectLine("STORED");
    }

    /** The item under {@code key}, or null. */
    public Item get(String key) throws IOException {
        send(("get " + key + "\r\n").getBytes(StandardCharsets.UTF_8));
        String header = readLine();
        if (header.equals("END")) {
            return null;
        }
        String[] parts = header.split(" ");
        if (!parts[0].equals("VALUE")) {
            throw new IOException("Unexpected answer: " + header);
        }
        byte[] value = in.readNBytes(Integer.parseInt(parts[3]));
        readLine();
        expectLine("END");
        return new Item(value, Integer.parseInt(parts[2]));
    }

    /** Waits up to 5 s for an item that is stored in the background, and returns it. */
    public Item await(String key) {
        return Awaitility.await(key + " stored")
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> get(key), Objects::nonNull);
    }

    /** Waits up to 5 s for an item that is deleted in the background to be gone. */
    public void awaitAbsent(String key) {
        Awaitility.await(key + " gone")
            .atMost(Duration.ofSeconds(5))
            .pollInterval(Duration.ofMillis(20))
            .until(() -> get(key) == null);
    }

    /**
     * The seconds {@code key} has left to live (-1: never expires), or null if it is not
     * there.
     */
    public Long ttl(String key) throws IOException {
        send(("mg " + key + " t\r\n").getBytes(StandardCharsets.UTF_8));
        String answer = readLine();
        if (answer.startsWith("EN")) {
            return null;
        }
        for (String flag : answer.split(" ")) {
            if (flag.startsWith("t")) {
                return Long.parseLong(flag.substring(1));
            }
        }
        throw new IOException("No TTL in: " + answer);
    }

    public Map<String, String> stats() throws IOException {
        send("stats\r\n".getBytes(StandardCharsets.US_ASCII));
        Map<String, String> stats = new HashMap<>();
        for (String line = readLine(); !line.equals("END"); line = readLine()) {
            String[] parts = line.split(" ", 3);
            stats.put(parts[1], parts[2]);
        }
        return stats;
    }

    public long stat(String name) throws IOException {
        return Long.parseLong(stats().get(name));
    }

    /** The keys memcached holds now, as its LRU crawler lists them. */
    public List<String> keys() throws IOException {
        send("lru_crawler metadump all\r\n".getBytes(StandardCharsets.US_ASCII));
        // One line per key ends with a bare LF; only the final END has CR LF, so one read
        // takes the whole dump.
        String[] lines = readLine().split("\n");
        if (!lines[lines.length - 1].equals("END")) {
            throw new IOException("Unexpected end of a metadump: " + lines[lines.length - 1]);
        }
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < lines.length - 1; i++) {
            if (!lines[i].startsWith("key=")) {
                throw new IOException("Unexpected line in a metadump: " + lines[i]);
            }
            // The crawler URL-encodes keys.
            keys.add(URLDecoder.decode(lines[i].substring("key=".length(), lines[i].indexOf(' ')),
                    StandardCharsets.UTF_8));
        }
        return keys;
    }

    /**
     * Deletes {@code key}, as memcached's eviction would lose it; true if it was there.
     */
    public boolean delete(String key) throws IOException {
        send(("delete " + key + "\r\n").getBytes(StandardCharsets.UTF_8));
        return readLine().equals("DELETED");
    }

    public void flushAll() throws IOException {
        send("flush_all\r\n".getBytes(StandardCharsets.US_ASCII));
        expectLine("OK");
    }

    private void send(byte[]... chunks) throws IOException {
        for (byte[] chunk : chunks) {
            out.write(chunk);
        }
        out.flush();
    }

    private void expectLine(String expected) throws IOException {
        String line = readLine();
        if (!line.equals(expected)) {
            throw new IOException("Expected " + expected + " but memcached said: " + line);
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        for (int b = in.read(); b != -1; b = in.read()) {
            if (previous == '\r' && b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, StandardCharsets.UTF_8);
            }
            line.write(b);
            previous = b;
        }
        throw new IOException("memcached closed the connection");
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

}
