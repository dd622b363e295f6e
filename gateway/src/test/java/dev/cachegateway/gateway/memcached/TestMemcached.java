package dev.cachegateway.gateway.memcached;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;

import dev.cachegateway.gateway.memcached.pool.ServerResolver;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;

/**
 * A {@link ReactiveMemcached} made the way the application makes it, for tests outside
 * this package.
 */
public final class TestMemcached {

    private TestMemcached() {
    }

    /**
     * A client of the memcached at host:port; its circuit breaker is in {@code breakers},
     * named host:port.
     */
    public static ReactiveMemcached connect(String host, int port, Duration timeout, CircuitBreakerRegistry breakers,
            MeterRegistry meters) {
        return awaitConnected(pool(List.of(host + ":" + port), timeout, ServerResolver.DNS, breakers, meters));
    }

    /**
     * A client of several servers, placed by the default ring, whose names
     * {@code resolver} resolves.
     */
    public static ReactiveMemcached pool(List<String> servers, Duration timeout, ServerResolver resolver,
            CircuitBreakerRegistry breakers, MeterRegistry meters) {
        return MemcachedClientConfiguration.reactiveMemcached(properties(servers, timeout), breakers, meters, resolver);
    }

    /**
     * A client of the memcached at host:port with {@code settings} changed from the
     * tests' usual ones.
     */
    static ReactiveMemcached connect(String address, Duration timeout, Consumer<MemcachedProperties> settings) {
        return connect(address, timeout, settings, new SimpleMeterRegistry());
    }

    /** As above, with its meters in {@code meters}. */
    static ReactiveMemcached connect(String address, Duration timeout, Consumer<MemcachedProperties> settings,
            MeterRegistry meters) {
        MemcachedProperties properties = properties(List.of(address), timeout);
        settings.accept(properties);
        return awaitConnected(
                MemcachedClientConfiguration.reactiveMemcached(properties, breakers(), meters, ServerResolver.DNS));
    }

    private static MemcachedProperties properties(List<String> servers, Duration timeout) {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(servers);
        properties.setOperationTimeout(timeout);
        properties.setResolveInterval(Duration.ofMillis(200));
        properties.setMaxReconnectDelay(Duration.ofSeconds(1));
        return properties;
    }

    /**
     * Waits until the client is connected to all its servers. spymemcached connects in
     * the background, and an operation issued before that fails at once
     * (FailureMode.Cancel), which a test must not mistake for an answer.
     */
    public static ReactiveMemcached awaitConnected(ReactiveMemcached client) {
        await("connected to every memcached server").atMost(Duration.ofSeconds(10))
            .pollInterval(Duration.ofMillis(10))
            .until(() -> client.availableServers() == client.configuredServers());
        return client;
    }

    public static CircuitBreakerRegistry breakers() {
        return new MemcachedClientConfiguration().memcachedCircuitBreakers(new MemcachedProperties());
    }

}
