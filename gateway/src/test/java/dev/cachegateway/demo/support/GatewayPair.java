package dev.cachegateway.demo.support;

import java.time.Duration;

import org.testcontainers.containers.GenericContainer;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * Two gateways on one memcached in front of one recording backend, started once for every
 * test class that needs replicas and nothing else, since starting them is most of what
 * such a class costs. Classes run one after another in the test JVM, and each test starts
 * from an empty cache and backend ({@link #reset()}).
 */
public final class GatewayPair {

    /** Long enough for a backend call that a test holds up to 1.5 s to keep its lock. */
    public static final Duration LOCK_TIMEOUT = Duration.ofSeconds(3);

    private static GatewayPair shared;

    private final GenericContainer<?> memcached = MemcachedContainer.create();

    private final RecordingBackend backend = RecordingBackend.startQuietly();

    private final ConfigurableApplicationContext first;

    private final ConfigurableApplicationContext second;

    private GatewayPair() {
        memcached.start();
        first = GatewayReplicas.start(memcached, backend.uri(), lockTimeout(), PurgeToken.SETTING);
        second = GatewayReplicas.start(memcached, backend.uri(), lockTimeout(), PurgeToken.SETTING);
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "gateway-pair-stop"));
    }

    /** The pair, started by the first class that asks for it. */
    public static synchronized GatewayPair shared() {
        if (shared == null) {
            shared = new GatewayPair();
        }
        return shared;
    }

    /** An empty memcached and a backend that has seen no call. */
    public void reset() throws Exception {
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.flushAll();
        }
        backend.reset();
    }

    public GenericContainer<?> memcached() {
        return memcached;
    }

    public RecordingBackend backend() {
        return backend;
    }

    public ConfigurableApplicationContext first() {
        return first;
    }

    public ConfigurableApplicationContext second() {
        return second;
    }

    private static String lockTimeout() {
        return "--memcached.cache.lock-timeout=" + LOCK_TIMEOUT.toMillis() + "ms";
    }

    // The test JVM's end; with no reaper container on this machine, memcached would
    // outlive it otherwise.
    private void stop() {
        first.close();
        second.close();
        backend.close();
        memcached.stop();
    }

}
