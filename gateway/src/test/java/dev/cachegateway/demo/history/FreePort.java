package dev.cachegateway.demo.history;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;

/** A port free a moment ago, for a server that must keep its port across a restart. */
final class FreePort {

    private FreePort() {
    }

    static int next() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
