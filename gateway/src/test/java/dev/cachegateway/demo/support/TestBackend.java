package dev.cachegateway.demo.support;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * What the tests' backends share: a port on the loopback address and a quiet start for
 * static fields. {@link SocketBackend} answers over a plain socket,
 * {@link RecordingBackend} over the JDK's HTTP server.
 */
public abstract class TestBackend implements AutoCloseable {

    /** Where a backend comes from, for {@link #startQuietly}. */
    @FunctionalInterface
    public interface Start<T extends TestBackend> {

        T start() throws IOException;

    }

    /**
     * For static fields, where a checked exception cannot be thrown; it stops when the
     * JVM does.
     */
    public static <T extends TestBackend> T startQuietly(Start<T> start) {
        try {
            T backend = start.start();
            Runtime.getRuntime().addShutdownHook(new Thread(backend::close));
            return backend;
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    public String uri() {
        return "http://127.0.0.1:" + port();
    }

    /** The port it answers on, on the loopback address. */
    protected abstract int port();

    @Override
    public abstract void close();

}
