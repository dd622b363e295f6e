package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A memcached that reports whatever version it is told to and speaks just enough of the
 * text protocol for a client to get, set and delete: {@code version}, {@code get} (one
 * key or many, as spymemcached merges them), {@code set} and {@code delete}. Anything
 * else, meta commands included, gets {@code ERROR}, as a memcached older than them
 * answers. It records the commands it was sent and the connections it accepted. Told to,
 * it leaves gets unanswered, as a memcached that hangs does.
 */
public final class FakeMemcached implements AutoCloseable {

    private record Item(int flags, byte[] value) {
    }

    private final ServerSocket server;

    private final Map<String, Item> items = new ConcurrentHashMap<>();

    private final List<String> commands = new CopyOnWriteArrayList<>();

    private final List<Socket> connections = new CopyOnWriteArrayList<>();

    private final AtomicInteger accepted = new AtomicInteger();

    private final AtomicInteger keysAsked = new AtomicInteger();

    private volatile boolean holdingGets;

    private volatile String version;

    public FakeMemcached(String version) throws IOException {
        this.version = version;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "fake-memcached-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** Where clients reach it, as {@code memcached.servers} takes it. */
    public String address() {
        return server.getInetAddress().getHostAddress() + ":" + server.getLocalPort();
    }

    /** The version it reports from now on. */
    public void reportVersion(String version) {
        this.version = version;
    }

    /** The first word of every command received, in order. */
    public List<String> commands() {
        return List.copyOf(commands);
    }

    /** How many connections it has accepted so far. */
    public int connectionsAccepted() {
        return accepted.get();
    }

    /** From now on, reads gets but never answers them. */
    public void holdGets() {
        holdingGets = true;
    }

    /** How many keys all the gets received so far named, a multi-get's each. */
    public int keysAsked() {
        return keysAsked.get();
    }

    /** Closes every connection, as a restart would; clients reconnect. */
    public void dropConnections() throws IOException {
        for (Socket connection : connections) {
            connection.close();
        }
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                accepted.incrementAndGet();
                connections.add(connection);
                Thread serving = new Thread(() -> serve(connection), "fake-memcached-connection");
                serving.setDaemon(true);
                serving.start();
            }
            catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket connection) {
        try (connection;
                InputStream in = connection.getInputStream();
                OutputStream out = connection.getOutputStream()) {
            for (String line = readLine(in); line != null; line = readLine(in)) {
                String[] words = line.split(" ");
                commands.add(words[0]);
                String answer = answer(words, in);
                if (!answer.isEmpty()) {
                    out.write(answer.getBytes(StandardCharsets.ISO_8859_1));
                    out.flush();
                }
            }
        }
        catch (IOException gone) {
            // The client or dropConnections closed it.
        }
    }

    private String answer(String[] words, InputStream in) throws IOException {
        switch (words[0]) {
            case "version":
                return "VERSION " + version + "\r\n";
            case "get":
                keysAsked.addAndGet(words.length - 1);
                if (holdingGets) {
                    return "";
                }
                StringBuilder found = new StringBuilder();
                for (int i = 1; i < words.length; i++) {
                    Item item = items.get(words[i]);
                    if (item != null) {
                        found.append("VALUE ")
                            .append(words[i])
                            .append(' ')
                            .append(Integer.toUnsignedString(item.flags()))
                            .append(' ')
                            .append(item.value().length)
                            .append("\r\n")
                            .append(new String(item.value(), StandardCharsets.ISO_8859_1))
                            .append("\r\n");
                    }
                }
                return found.append("END\r\n").toString();
            case "set":
                byte[] value = in.readNBytes(Integer.parseInt(words[4]));
                in.readNBytes(2);
                items.put(words[1], new Item(Integer.parseUnsignedInt(words[2]), value));
                return "STORED\r\n";
            case "delete":
                return items.remove(words[1]) != null ? "DELETED\r\n" : "NOT_FOUND\r\n";
            default:
                return "ERROR\r\n";
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, Math.max(0, bytes.length - 1), StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        server.close();
        dropConnections();
    }

}
