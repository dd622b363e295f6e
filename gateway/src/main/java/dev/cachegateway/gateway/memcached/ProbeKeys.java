package dev.cachegateway.gateway.memcached;

/**
 * Keys for the health check to ask each server. spymemcached can only address a server through a key, so each
 * server's probe key is the first of a series that the ring places on it.
 */
final class ProbeKeys {

    private static final String PREFIX = "memcached-gateway:health:";

    private static final int TRIES = 100_000;

    private ProbeKeys() {
    }

    /** A key on the server at {@code index}, or null if none of the series lands there. */
    static String onServer(HashRing ring, int index) {
        for (int i = 0; i < TRIES; i++) {
            if (ring.serverFor(PREFIX + i) == index) {
                return PREFIX + i;
            }
        }
        return null;
    }
}
