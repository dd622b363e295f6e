package dev.cachegateway.demo.support;

import java.io.IOException;
import java.io.UncheckedIOException;

import org.testcontainers.containers.GenericContainer;

/**
 * The memcached every test runs against: the image the compose file uses, on its default
 * port.
 */
public final class MemcachedContainer {

    public static final int PORT = 11211;

    private MemcachedContainer() {
    }

    /**
     * A new, not yet started memcached; a test's {@code @Container} field starts and
     * stops it.
     */
    public static GenericContainer<?> create() {
        return new GenericContainer<>("memcached:1.6").withExposedPorts(PORT);
    }

    /**
     * The one memcached that every test class in this JVM may share, started on first use
     * and stopped with the JVM. A class that pauses, stops or fills it needs one of its
     * own.
     */
    public static GenericContainer<?> shared() {
        return Shared.CONTAINER;
    }

    // Started when first asked for, as the JVM loads this holder.
    private static final class Shared {

        static final GenericContainer<?> CONTAINER = start();

        private static GenericContainer<?> start() {
            GenericContainer<?> memcached = create();
            memcached.start();
            Runtime.getRuntime().addShutdownHook(new Thread(memcached::stop));
            return memcached;
        }

    }

    /** The address the gateway reaches it at, as {@code memcached.servers} takes it. */
    public static String address(GenericContainer<?> memcached) {
        return memcached.getHost() + ":" + memcached.getMappedPort(PORT);
    }

    /** A raw text-protocol client of it. */
    public static MemcachedTextClient textClient(GenericContainer<?> memcached) {
        try {
            return new MemcachedTextClient(memcached.getHost(), memcached.getMappedPort(PORT));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

}
