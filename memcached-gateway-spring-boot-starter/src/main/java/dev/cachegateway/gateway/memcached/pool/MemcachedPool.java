package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

import dev.cachegateway.gateway.memcached.ServerUnavailableException;
import dev.cachegateway.gateway.memcached.ring.HashRing;
import dev.cachegateway.gateway.memcached.ring.RingLocator;
import net.spy.memcached.MemcachedNode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The configured memcached servers, the ring that places keys on them, and a spymemcached
 * client connected to their current addresses. spymemcached binds each server to the
 * address it resolved at start for the life of the client, so when a name resolves to a
 * new address the pool connects a new client, waits for it, switches to it and lets the
 * old one drain. The ring is built from the names, so a new address never moves a key.
 */
public final class MemcachedPool implements AutoCloseable {

    private static final Logger logger = LoggerFactory.getLogger(MemcachedPool.class);

    private final List<PoolNode> nodes;

    private final HashRing ring;

    private final ServerResolver resolver;

    private final Function<InetSocketAddress[], PoolConnection> connector;

    private final Duration switchTimeout;

    private volatile PoolConnection current;

    public MemcachedPool(List<PoolNode> nodes, HashRing ring, ServerResolver resolver,
            Function<InetSocketAddress[], PoolConnection> connector, Duration switchTimeout) {
        this.nodes = List.copyOf(nodes);
        this.ring = ring;
        this.resolver = resolver;
        this.connector = connector;
        this.switchTimeout = switchTimeout;
        this.current = PoolConnection.none(nodes.size());
        refresh();
    }

    public List<PoolNode> nodes() {
        return nodes;
    }

    public PoolNode nodeFor(String key) {
        return nodes.get(ring.serverFor(key));
    }

    /**
     * The client to ask for {@code node}'s keys; fails if the node's name has not
     * resolved yet.
     */
    public PoolClient clientFor(PoolNode node) {
        PoolConnection connection = current;
        PoolClient client = connection.client();
        RingLocator locator = connection.locator();
        if (client == null || locator == null || locator.node(node.index()) == null) {
            throw new ServerUnavailableException(node.server());
        }
        return client;
    }

    /**
     * The client to send meta commands for {@code node}'s keys to, or null if the node's
     * current connection has not reported a version that has them (yet). One read of the
     * client answers both, so a switch to a new client never sends a meta command to a
     * server whose version that client has not heard.
     */
    public @Nullable PoolClient metaClientFor(PoolNode node) {
        PoolClient client = current.client();
        return client != null && client.metaCommands(node.index()) ? client : null;
    }

    /**
     * The version {@code node} reported on its current connection, or null while unknown.
     */
    public @Nullable String versionOf(PoolNode node) {
        PoolClient client = current.client();
        return client != null ? client.version(node.index()) : null;
    }

    /** Whether the client has a live connection to {@code node}. */
    public boolean isConnected(PoolNode node) {
        RingLocator locator = current.locator();
        MemcachedNode connection = locator != null ? locator.node(node.index()) : null;
        return connection != null && connection.isActive();
    }

    /**
     * The address {@code node} is reached at now, or null while its name has not
     * resolved.
     */
    public @Nullable InetSocketAddress addressOf(PoolNode node) {
        return current.addresses()[node.index()];
    }

    /**
     * Resolves every name again and switches to a new client if any address changed. A
     * name that fails to resolve keeps its last address: a server that is down is often
     * also gone from DNS, and will come back at one.
     */
    public synchronized void refresh() {
        PoolConnection old = current;
        InetSocketAddress[] addresses = old.addresses().clone();
        for (PoolNode node : nodes) {
            try {
                addresses[node.index()] = resolver.resolve(node.server());
            }
            catch (IOException | RuntimeException ex) {
                if (addresses[node.index()] == null) {
                    logger.debug("memcached server {} does not resolve yet: {}", node.server(), ex.toString());
                }
            }
        }
        if (Arrays.equals(addresses, old.addresses())) {
            return;
        }
        for (PoolNode node : nodes) {
            InetSocketAddress was = old.addresses()[node.index()];
            if (addresses[node.index()] != null && !addresses[node.index()].equals(was)) {
                logger.info("memcached server {} is at {}{}", node.server(), addresses[node.index()],
                        was != null ? ", was " + was : "");
            }
        }
        PoolConnection next = connector.apply(addresses);
        awaitConnected(next);
        current = next;
        old.close(switchTimeout);
    }

    // Switching before the new client is connected would fail every key for a moment,
    // moved or not.
    private void awaitConnected(PoolConnection next) {
        long connectedBefore = nodes.stream().filter(this::isConnected).count();
        long deadline = System.nanoTime() + switchTimeout.toNanos();
        while (next.client() != null && next.client().getAvailableServers().size() < connectedBefore
                && System.nanoTime() < deadline) {
            try {
                TimeUnit.MILLISECONDS.sleep(20);
            }
            catch (InterruptedException ex) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    @Override
    public synchronized void close() {
        current.close(switchTimeout);
    }

}
