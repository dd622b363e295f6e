package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How the gateway reaches memcached.
 */
@ConfigurationProperties("memcached")
public class MemcachedProperties {

    /** The memcached servers as host:port; with more than one, keys are spread by Ketama consistent hashing. */
    private List<String> servers = new ArrayList<>(List.of("localhost:11211"));

    /** How long a lookup or store may take before the gateway gives up on it and answers from the backend. */
    private Duration operationTimeout = Duration.ofMillis(100);

    /** The memcached protocol: text (what nginx speaks) or binary. */
    private Protocol protocol = Protocol.TEXT;

    /** The longest pause between attempts to reconnect to a server that went away (whole seconds). */
    private Duration maxReconnectDelay = Duration.ofSeconds(2);

    /** How many operations in a row may time out on one server before its connection is dropped and rebuilt. */
    private int timeoutExceptionThreshold = 20;

    /** How many operations may wait for each server; past that a lookup fails at once and a store is dropped. */
    private int operationQueueLength = 16_384;

    /** How long shutdown waits for queued stores to reach memcached. */
    private Duration shutdownTimeout = Duration.ofSeconds(1);

    /** When to stop asking a failing memcached, and when to try it again. */
    private final CircuitBreaker circuitBreaker = new CircuitBreaker();

    public List<String> getServers() {
        return servers;
    }

    public void setServers(List<String> servers) {
        this.servers = servers;
    }

    public Duration getOperationTimeout() {
        return operationTimeout;
    }

    public void setOperationTimeout(Duration operationTimeout) {
        this.operationTimeout = operationTimeout;
    }

    public Protocol getProtocol() {
        return protocol;
    }

    public void setProtocol(Protocol protocol) {
        this.protocol = protocol;
    }

    public Duration getMaxReconnectDelay() {
        return maxReconnectDelay;
    }

    public void setMaxReconnectDelay(Duration maxReconnectDelay) {
        this.maxReconnectDelay = maxReconnectDelay;
    }

    public int getTimeoutExceptionThreshold() {
        return timeoutExceptionThreshold;
    }

    public void setTimeoutExceptionThreshold(int timeoutExceptionThreshold) {
        this.timeoutExceptionThreshold = timeoutExceptionThreshold;
    }

    public int getOperationQueueLength() {
        return operationQueueLength;
    }

    public void setOperationQueueLength(int operationQueueLength) {
        this.operationQueueLength = operationQueueLength;
    }

    public Duration getShutdownTimeout() {
        return shutdownTimeout;
    }

    public void setShutdownTimeout(Duration shutdownTimeout) {
        this.shutdownTimeout = shutdownTimeout;
    }

    public CircuitBreaker getCircuitBreaker() {
        return circuitBreaker;
    }

    /**
     * The circuit breaker around every memcached operation. While it is open, operations fail at once without
     * reaching memcached, so an outage adds no latency; it lets a few through again after a pause.
     */
    public static class CircuitBreaker {

        /** The share of failed operations, in percent, at which the breaker opens. */
        private float failureRateThreshold = 50;

        /** How many of the latest operations the failure rate is taken over. */
        private int slidingWindowSize = 20;

        /** How many operations must have been seen before the failure rate counts. */
        private int minimumNumberOfCalls = 10;

        /** How long the breaker stays open before it lets trial operations through. */
        private Duration waitInOpenState = Duration.ofSeconds(2);

        /** How many trial operations decide whether the breaker closes again. */
        private int permittedCallsInHalfOpenState = 3;

        public float getFailureRateThreshold() {
            return failureRateThreshold;
        }

        public void setFailureRateThreshold(float failureRateThreshold) {
            this.failureRateThreshold = failureRateThreshold;
        }

        public int getSlidingWindowSize() {
            return slidingWindowSize;
        }

        public void setSlidingWindowSize(int slidingWindowSize) {
            this.slidingWindowSize = slidingWindowSize;
        }

        public int getMinimumNumberOfCalls() {
            return minimumNumberOfCalls;
        }

        public void setMinimumNumberOfCalls(int minimumNumberOfCalls) {
            this.minimumNumberOfCalls = minimumNumberOfCalls;
        }

        public Duration getWaitInOpenState() {
            return waitInOpenState;
        }

        public void setWaitInOpenState(Duration waitInOpenState) {
            this.waitInOpenState = waitInOpenState;
        }

        public int getPermittedCallsInHalfOpenState() {
            return permittedCallsInHalfOpenState;
        }

        public void setPermittedCallsInHalfOpenState(int permittedCallsInHalfOpenState) {
            this.permittedCallsInHalfOpenState = permittedCallsInHalfOpenState;
        }
    }
}
