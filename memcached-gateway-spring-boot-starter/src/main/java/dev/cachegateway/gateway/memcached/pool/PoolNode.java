package dev.cachegateway.gateway.memcached.pool;

import dev.cachegateway.gateway.memcached.operation.OperationTimers;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.jspecify.annotations.Nullable;

/**
 * One configured memcached server and what belongs to it alone: its circuit breaker, so
 * that a failing server costs only its own keys, its timers, and a key the ring places on
 * it, for the health check to ask.
 *
 * @param index its place in {@code memcached.servers}
 * @param server the server as configured
 * @param breaker its circuit breaker, named after it
 * @param timers its {@code memcached.operations} timers, tagged with it
 * @param probeKey a key that lives on this server, or null if none was found
 */
public record PoolNode(int index, ServerAddress server, CircuitBreaker breaker, OperationTimers timers,
        @Nullable String probeKey) {
}
