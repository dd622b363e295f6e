package dev.cachegateway.gateway.support;

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
