package dev.cachegateway.gateway.memcached;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import org.awaitility.Awaitility;

/**
 * A {@link ReactiveMemcached} made the way the application makes it, for tests outside this package.
 */
public final class TestMemcached {

    private TestMemcached() {
    }

    /** A client of the memcached at host:port; its circuit breaker is in {@code breakers}. */
    public static ReactiveMemcached connect(String host, int port, Duration timeout, CircuitBreakerRegistry breakers,
            MeterRegistry meters) {
        try {
            return awaitConnected(new MemcachedClientConfiguration().reactiveMemcached(
                    properties(host, port, timeout), breakers, meters));
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    /**
     * Waits until the client is connected to all its servers. spymemcached connects in the background, and an
     * operation issued before that fails at once (FailureMode.Cancel), which a test must not mistake for an answer.
     */
    public static ReactiveMemcached awaitConnected(ReactiveMemcached client) {
        Awaitility.await("connected to memcached").atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(10))
                .until(() -> client.availableServers() == client.configuredServers());
        return client;
    }

    public static CircuitBreakerRegistry breakers() {
        return new MemcachedClientConfiguration().memcachedCircuitBreakers(new MemcachedProperties());
    }

    private static MemcachedProperties properties(String host, int port, Duration timeout) {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(List.of(host + ":" + port));
        properties.setOperationTimeout(timeout);
        return properties;
    }
}
