package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.memcached.ring.RingType;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * How the gateway reaches memcached.
 */
@ConfigurationProperties("memcached")
public class MemcachedProperties {

    /**
     * Whether the starter configures anything: off, the application runs as if it were
     * not there.
     */
    private boolean enabled = true;

    /**
     * The memcached servers as host:port, each optionally followed by a space and a
     * weight; with more than one, keys are spread over them by the ring.
     */
    private List<String> servers = new ArrayList<>(List.of("localhost:11211"));

    /**
     * How keys are placed on several servers: libmemcached (weighted Ketama) or nginx
     * (hash ... consistent).
     */
    private RingType ring = RingType.LIBMEMCACHED;

    /**
     * How often the servers' names are resolved again, so that a server that moves is
     * followed.
     */
    private Duration resolveInterval = Duration.ofSeconds(5);

    /**
     * How long a lookup or store may take before the gateway gives up on it and answers
     * from the backend.
     */
    private Duration operationTimeout = Duration.ofMillis(100);

    /**
     * The longest a lookup or store waits for memcached while the gateway itself is
     * paused or behind (a GC pause, a busy CPU): such time is not held against memcached,
     * up to this long; then the operation fails, as the gateway's delay, not memcached's
     * failure.
     */
    private Duration maxGatewayDelay = Duration.ofSeconds(1);

    /** The memcached protocol: text (what nginx speaks) or binary. */
    private Protocol protocol = Protocol.TEXT;

    /**
     * The longest pause between attempts to reconnect to a server that went away (whole
     * seconds).
     */
    private Duration maxReconnectDelay = Duration.ofSeconds(2);

    /**
     * Whether lookups use memcached's meta commands (mg) where a server has them (1.6.10
     * and later): they tell an item's remaining TTL, which stale answers need. Off, every
     * lookup is a get, which spymemcached may merge.
     */
    private boolean metaCommands = true;

    /**
     * Whether lookups that wait together for one server are sent to it as one multi-get.
     */
    private boolean mergeLookups = true;

    /**
     * How many operations in a row may time out on one server before its connection is
     * dropped and rebuilt.
     */
    private int timeoutExceptionThreshold = 20;

    /**
     * How many operations may wait for each server; past that a lookup fails at once and
     * a store is dropped.
     */
    private int operationQueueLength = 16_384;

    /**
     * How long shutdown, or the switch to a server's new address, waits for queued
     * operations to reach memcached.
     */
    private Duration shutdownTimeout = Duration.ofSeconds(1);

    /** When to stop asking a failing memcached, and when to try it again. */
    @NestedConfigurationProperty
    private final CircuitBreakerProperties circuitBreaker = new CircuitBreakerProperties();

    public List<String> getServers() {
        return servers;
    }

    public void setServers(List<String> servers) {
        this.servers = servers;
    }

    public RingType getRing() {
        return ring;
    }

    public void setRing(RingType ring) {
        this.ring = ring;
    }

    public Duration getResolveInterval() {
        return resolveInterval;
    }

    public void setResolveInterval(Duration resolveInterval) {
        this.resolveInterval = resolveInterval;
    }

    public Duration getOperationTimeout() {
        return operationTimeout;
    }

    public void setOperationTimeout(Duration operationTimeout) {
        this.operationTimeout = operationTimeout;
    }

    public Duration getMaxGatewayDelay() {
        return maxGatewayDelay;
    }

    public void setMaxGatewayDelay(Duration maxGatewayDelay) {
        this.maxGatewayDelay = maxGatewayDelay;
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

    public boolean isMetaCommands() {
        return metaCommands;
    }

    public void setMetaCommands(boolean metaCommands) {
        this.metaCommands = metaCommands;
    }

    public boolean isMergeLookups() {
        return mergeLookups;
    }

    public void setMergeLookups(boolean mergeLookups) {
        this.mergeLookups = mergeLookups;
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

    public CircuitBreakerProperties getCircuitBreaker() {
        return circuitBreaker;
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

}
