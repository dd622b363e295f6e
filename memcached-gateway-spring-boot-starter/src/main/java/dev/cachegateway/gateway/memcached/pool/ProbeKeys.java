package dev.cachegateway.gateway.memcached.pool;

import dev.cachegateway.gateway.memcached.ring.HashRing;
import org.jspecify.annotations.Nullable;

/**
 * Keys for the health check to ask each server. spymemcached can only address a server
 * through a key, so each server's probe key is the first of a series that the ring places
 * on it.
 */
public final class ProbeKeys {

    private static final String PREFIX = "memcached-gateway:health:";

    private static final int TRIES = 100_000;

    private ProbeKeys() {
    }

    /**
     * A key on the server at {@code index}, or null if none of the series lands there.
     */
    public static @Nullable String onServer(HashRing ring, int index) {
        for (int i = 0; i < TRIES; i++) {
            if (ring.serverFor(PREFIX + i) == index) {
                return PREFIX + i;
            }
        }
        return null;
    }

}
