package dev.cachegateway.demo.support;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP proxy that can hold what clients send on its way to the server, as a network that
 * delays one connection does: a command sent while it holds reaches the server once it
 * lets go, with nothing lost. The way back is never held.
 */
public final class HoldingProxy implements AutoCloseable {

    private final ServerSocket server;

    private final String targetHost;

    private final int targetPort;

    private final List<Socket> sockets = new CopyOnWriteArrayList<>();

    private final AtomicInteger held = new AtomicInteger();

    private volatile CountDownLatch gate = new CountDownLatch(0);

    // What clients must send, and how often, before the proxy holds.
    private volatile String trigger;

    private final AtomicInteger triggersLeft = new AtomicInteger();

    public HoldingProxy(String targetHost, int targetPort) throws IOException {
        this.targetHost = targetHost;
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread acceptor = new Thread(this::accept, "holding-proxy-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Holds what clients send from now on, until {@link #release}. */
    public void hold() {
        held.set(0);
        gate = new CountDownLatch(1);
    }

    /**
     * Holds from the read of a client that carries {@code text} for the
     * {@code occurrence}th time, that read included, until {@link #release}: a command
     * held as it is sent, whatever the client sent before it.
     */
    public void holdAt(String text, int occurrence) {
        triggersLeft.set(occurrence);
        trigger = text;
    }

    /** How many more times clients must send the text that makes the proxy hold. */
    public int triggersLeft() {
        return triggersLeft.get();
    }

    /** How many reads from clients are held now. */
    public int held() {
        return held.get();
    }

    /** Sends on what was held, and holds nothing more. */
    public void release() {
        gate.countDown();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                Socket target = new Socket(targetHost, targetPort);
                sockets.add(client);
                sockets.add(target);
                pump(client.getInputStream(), target.getOutputStream(), true);
                pump(target.getInputStream(), client.getOutputStream(), false);
            }
            catch (IOException ex) {
                return;
            }
        }
    }

    private void pump(InputStream from, OutputStream to, boolean holds) {
        Thread pump = new Thread(() -> {
            byte[] buffer = new byte[8192];
            try {
                for (int read = from.read(buffer); read >= 0; read = from.read(buffer)) {
                    if (holds) {
                        triggered(new String(buffer, 0, read, StandardCharsets.ISO_8859_1));
                        CountDownLatch current = gate;
                        if (current.getCount() > 0) {
                            held.incrementAndGet();
                            current.await();
                        }
                    }
                    to.write(buffer, 0, read);
                    to.flush();
                }
            }
            catch (IOException | InterruptedException ex) {
                // The other side closed, or the proxy did.
            }
        }, "holding-proxy-pump");
        pump.setDaemon(true);
        pump.start();
    }

    private synchronized void triggered(String sent) {
        String text = trigger;
        if (text == null) {
            return;
        }
        for (int at = sent.indexOf(text); at >= 0; at = sent.indexOf(text, at + text.length())) {
            if (triggersLeft.decrementAndGet() == 0) {
                trigger = null;
                hold();
                return;
            }
        }
    }

    @Override
    public void close() throws IOException {
        release();
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

}
