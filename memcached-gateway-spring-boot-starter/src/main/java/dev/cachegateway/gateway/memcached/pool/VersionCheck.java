package dev.cachegateway.gateway.memcached.pool;

import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.IntConsumer;

import dev.cachegateway.gateway.memcached.ring.RingLocator;
import net.spy.memcached.ConnectionObserver;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationCallback;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.protocol.ascii.AsciiOperationFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks a server's version each time a connection to it comes up, and forgets it when the
 * connection goes, into {@link ServerVersions}. spymemcached tells its observers on its
 * I/O thread; this only queues a {@code version} command there, behind whatever already
 * waits for the connection, and never blocks. Until the answer is in, the server's keys
 * are looked up with {@code get}.
 */
final class VersionCheck implements ConnectionObserver {

    private static final Logger logger = LoggerFactory.getLogger(VersionCheck.class);

    private final MemcachedClient client;

    private final RingLocator locator;

    private final ServerVersions versions;

    // The text protocol's: a text client's connections speak nothing else.
    private final AsciiOperationFactory operations = new AsciiOperationFactory();

    private VersionCheck(MemcachedClient client, RingLocator locator, ServerVersions versions) {
        this.client = client;
        this.locator = locator;
        this.versions = versions;
    }

    /** Starts following {@code client}'s connections, asking those already up at once. */
    static void start(MemcachedClient client, RingLocator locator, ServerVersions versions) {
        VersionCheck check = new VersionCheck(client, locator, versions);
        client.addObserver(check);
        // A connection that came up before the observer was in place has not been asked;
        // one that came up since is asked twice, and the later answer counts.
        for (int index = 0; index < versions.size(); index++) {
            MemcachedNode node = locator.node(index);
            if (node != null && node.isActive()) {
                check.ask(index, node);
            }
        }
    }

    @Override
    public void connectionEstablished(SocketAddress address, int reconnectCount) {
        forEachServerAt(address, index -> ask(index, locator.node(index)));
    }

    @Override
    public void connectionLost(SocketAddress address) {
        forEachServerAt(address, versions::lost);
    }

    private void forEachServerAt(SocketAddress address, IntConsumer action) {
        for (int index = 0; index < versions.size(); index++) {
            MemcachedNode node = locator.node(index);
            if (node != null && node.getSocketAddress().equals(address)) {
                action.accept(index);
            }
        }
    }

    // Called inside spymemcached's connection handling, which takes any exception for a
    // broken connection: a version that cannot be asked leaves the server on get until
    // its next connection.
    private void ask(int index, MemcachedNode node) {
        long connection = versions.connected(index);
        try {
            client.broadcastOp((target, latch) -> version(index, connection, latch), List.of(node));
        }
        catch (RuntimeException shuttingDownOrQueueFull) {
            logger.debug("could not ask memcached {} for its version: {}", node.getSocketAddress(),
                    shuttingDownOrQueueFull.toString());
        }
    }

    private Operation version(int index, long connection, CountDownLatch latch) {
        return operations.version(new OperationCallback() {

            @Override
            public void receivedStatus(OperationStatus status) {
                if (status.isSuccess()) {
                    versions.answered(index, connection, status.getMessage());
                }
            }

            @Override
            public void complete() {
                latch.countDown();
            }
        });
    }

}
