package dev.cachegateway.gateway.memcached;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.List;

import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;

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
            return new MemcachedClientConfiguration().reactiveMemcached(properties(host, port, timeout), breakers,
                    meters);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
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
