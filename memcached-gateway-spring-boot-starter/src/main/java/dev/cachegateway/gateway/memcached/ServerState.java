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
 * @param version the version it reported on its current connection, or null while unknown
 * @param metaCommands whether that version has memcached's meta commands, so that lookups
 * of its keys use them
 */
public record ServerState(String server, @Nullable InetSocketAddress address, boolean connected,
        CircuitBreaker.State circuitBreaker, @Nullable String version, boolean metaCommands) {
}
