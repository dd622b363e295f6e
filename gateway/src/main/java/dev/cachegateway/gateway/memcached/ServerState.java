package dev.cachegateway.gateway.memcached;

import java.net.InetSocketAddress;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;

/**
 * What the gateway knows of one memcached server now, for health and tests.
 *
 * @param server the server as configured
 * @param address where it is reached now, or null while its name has not resolved
 * @param connected whether the client has a live connection to it
 * @param circuitBreaker the state of its breaker
 */
public record ServerState(String server, @Nullable InetSocketAddress address, boolean connected,
        CircuitBreaker.State circuitBreaker) {
}
