package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;

import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import dev.cachegateway.gateway.memcached.operation.Reader;
import dev.cachegateway.gateway.memcached.protocol.meta.MetaCallback;
import dev.cachegateway.gateway.memcached.protocol.meta.MetaGetOperation;
import dev.cachegateway.gateway.memcached.protocol.meta.MetaDeleteOperation;
import dev.cachegateway.gateway.memcached.protocol.meta.MetaSetOperation;
import dev.cachegateway.gateway.memcached.ring.RingLocator;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationStatus;
import org.jspecify.annotations.Nullable;

/**
 * spymemcached's client, plus memcached's meta commands on the same connections, and each
 * server's version, asked as each connection comes up. The meta commands enqueue exactly
 * as spymemcached's own {@code asyncGet} does, with the connection's public
 * {@code enqueueOperation}: by key, with its key check, its fail-fast on a down server
 * (FailureMode.Cancel) and its ordering, so they share the queue, the pipelining and the
 * failure handling of every other operation. That connection is {@code MemcachedClient}'s
 * protected {@code mconn}, hence a subclass, which is what EVCache does too; the public
 * alternative, {@code broadcastOp} to one node, skips the key check and the fail-fast and
 * counts down a latch per operation. The versions are asked by {@link VersionCheck}.
 */
public final class PoolClient extends MemcachedClient {

    private final RingLocator locator;

    private final ServerVersions versions;

    private final Reader[] readers;

    private PoolClient(ConnectionFactory factory, List<InetSocketAddress> addresses, int servers) throws IOException {
        super(factory, addresses);
        this.locator = (RingLocator) getNodeLocator();
        this.versions = new ServerVersions(servers);
        this.readers = new Reader[servers];
        for (int index = 0; index < servers; index++) {
            MemcachedNode node = locator.node(index);
            readers[index] = node != null && mconn instanceof WatchedConnection watched ? watched.readerOf(node)
                    : Reader.UNKNOWN;
        }
    }

    /**
     * Connects to {@code addresses}; over the text protocol it also asks each server's
     * version on every connection, on spymemcached's I/O thread, without waiting. The
     * binary protocol has no meta commands.
     */
    static PoolClient connect(ConnectionFactory factory, List<InetSocketAddress> addresses, int servers,
            boolean textProtocol) throws IOException {
        PoolClient client = new PoolClient(factory, addresses, servers);
        if (textProtocol) {
            VersionCheck.start(client, client.locator, client.versions);
        }
        return client;
    }

    /**
     * Whether the configured server at {@code index} reported, on its current connection,
     * a version with meta.
     */
    public boolean metaCommands(int index) {
        return versions.metaCommands(index);
    }

    /**
     * The version the server at {@code index} reported on its current connection, or null
     * while unknown.
     */
    public @Nullable String version(int index) {
        return versions.version(index);
    }

    /**
     * What the connection to the server at {@code index} says of memcached, for its
     * operations' deadlines.
     */
    public Reader reader(int index) {
        return readers[index];
    }

    /**
     * {@code mg}: the item with its remaining TTL and recache flags, or null on a miss.
     * Never creates an item.
     */
    public OperationFuture<MetaItem> metaGet(String key, int recacheSeconds) {
        return enqueue(key, callback -> new MetaGetOperation(key, recacheSeconds, callback));
    }

    /** {@code md <key> I T<keepSeconds>}: marks the item stale; true if it was there. */
    public OperationFuture<Boolean> metaInvalidate(String key, int keepSeconds) {
        return enqueue(key, callback -> MetaDeleteOperation.invalidate(key, keepSeconds, callback));
    }

    /**
     * {@code ms <key> ... c ME}: adds {@code item}; the CAS unique memcached gave it, or
     * null where an item was there.
     */
    public OperationFuture<Long> metaAdd(String key, int ttlSeconds, CachedItem item) {
        return enqueue(key, callback -> MetaSetOperation.add(key, ttlSeconds, item, callback));
    }

    /**
     * {@code ms <key> ... c C<cas>}: replaces the item that still has the CAS unique
     * {@code cas}; the new CAS unique, or null where the item is gone or was written
     * since.
     */
    public OperationFuture<Long> metaSetIfCas(String key, long cas, int ttlSeconds, CachedItem item) {
        return enqueue(key, callback -> MetaSetOperation.ifCas(key, cas, ttlSeconds, item, callback));
    }

    /**
     * {@code md <key> C<cas>}: deletes the item that still has the CAS unique
     * {@code cas}; true if it did.
     */
    public OperationFuture<Boolean> metaDeleteIfCas(String key, long cas) {
        return enqueue(key, callback -> MetaDeleteOperation.ifCas(key, cas, callback));
    }

    // As spymemcached's own operations: the future is set by the callback, on the I/O
    // thread, then completed.
    private <T> OperationFuture<T> enqueue(String key, Function<MetaCallback<T>, Operation> operation) {
        CountDownLatch latch = new CountDownLatch(1);
        SentOperationFuture<T> future = new SentOperationFuture<>(key, latch, operationTimeout, executorService);
        Operation op = operation.apply(new MetaCallback<T>() {

            private @Nullable T result;

            @Override
            public void gotResult(T value) {
                result = value;
            }

            @Override
            public void receivedStatus(OperationStatus status) {
                future.set(result, status);
            }

            @Override
            public void complete() {
                latch.countDown();
                future.signalComplete();
            }
        });
        future.setOperation(op);
        mconn.enqueueOperation(key, op);
        return future;
    }

}
