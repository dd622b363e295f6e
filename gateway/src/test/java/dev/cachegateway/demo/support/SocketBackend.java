package dev.cachegateway.demo.support;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A backend over a plain TCP socket, for bytes no HTTP server would send or keep: each
 * connection is served on a thread of its own, as the subclass says.
 */
public abstract class SocketBackend extends TestBackend {

    private final ServerSocket server;

    private final ExecutorService workers = Executors.newCachedThreadPool();

    protected SocketBackend() throws IOException {
        server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        // A subclass's fields are set before any connection reaches serve: a client
        // needs the uri, which it has only once the constructor has returned.
        workers.execute(this::accept);
    }

    /** Answers one connection until it ends. */
    protected abstract void serve(Socket connection);

    /** Called as each connection is accepted, before it is served. */
    protected void accepted() {
    }

    @Override
    protected int port() {
        return server.getLocalPort();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket connection = server.accept();
                accepted();
                workers.execute(() -> serve(connection));
            }
            catch (IOException ex) {
                return;
            }
        }
    }

    @Override
    public void close() {
        try {
            server.close();
        }
        catch (IOException ex) {
            // Closing anyway.
        }
        workers.shutdownNow();
    }

}
