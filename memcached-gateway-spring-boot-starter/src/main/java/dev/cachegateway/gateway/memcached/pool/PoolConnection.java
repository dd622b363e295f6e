package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;

import dev.cachegateway.gateway.memcached.MemcachedProperties;
import dev.cachegateway.gateway.memcached.ring.HashRing;
import dev.cachegateway.gateway.memcached.ring.RingLocator;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import org.jspecify.annotations.Nullable;

/**
 * One spymemcached client of the pool and the addresses it was made for; no client while
 * no name has resolved.
 *
 * @param client the client, or null
 * @param locator its locator, which finds a configured server's node
 * @param addresses for each configured server, the address the client connects to, or
 * null
 */
public record PoolConnection(@Nullable PoolClient client, @Nullable RingLocator locator,
        @Nullable InetSocketAddress[] addresses) {

    public static PoolConnection none(int servers) {
        return new PoolConnection(null, null, new InetSocketAddress[servers]);
    }

    /**
     * Connects to the servers that have an address, each known to the ring by its place
     * in the list.
     */
    public static PoolConnection open(InetSocketAddress[] addresses, MemcachedProperties properties,
            ExecutorService listeners, HashRing ring) {
        int[] serverOfNode = IntStream.range(0, addresses.length).filter(i -> addresses[i] != null).toArray();
        if (serverOfNode.length == 0) {
            return none(addresses.length);
        }
        List<InetSocketAddress> resolved = new ArrayList<>();
        for (int server : serverOfNode) {
            resolved.add(addresses[server]);
        }
        try {
            PoolClient client = PoolClient.connect(new PoolConnectionFactory(properties, listeners, ring, serverOfNode),
                    resolved, addresses.length, properties.getProtocol() == Protocol.TEXT);
            return new PoolConnection(client, (RingLocator) client.getNodeLocator(), addresses);
        }
        catch (IOException ex) {
            throw new UncheckedIOException(ex);
        }
    }

    public void close(Duration timeout) {
        if (client != null) {
            client.shutdown(timeout.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
