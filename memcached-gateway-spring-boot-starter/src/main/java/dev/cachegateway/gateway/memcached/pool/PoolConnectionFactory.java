package dev.cachegateway.gateway.memcached.pool;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;

import dev.cachegateway.gateway.memcached.MemcachedProperties;
import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.ring.HashRing;
import dev.cachegateway.gateway.memcached.ring.RingLocator;
import net.spy.memcached.ConnectionFactoryBuilder.Protocol;
import net.spy.memcached.DefaultConnectionFactory;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedConnection;
import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;
import net.spy.memcached.OperationFactory;
import net.spy.memcached.ops.ArrayOperationQueueFactory;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.protocol.ascii.AsciiOperationFactory;
import net.spy.memcached.protocol.binary.BinaryOperationFactory;

/**
 * spymemcached's settings for one client of the pool, set up for a cache in front of a
 * service: an unreachable server must cost a request nothing, so operations fail fast
 * instead of waiting. It is a subclass rather than {@code ConnectionFactoryBuilder}'s
 * product because only a subclass can bring its own locator.
 */
public final class PoolConnectionFactory extends DefaultConnectionFactory {

    private final MemcachedProperties properties;

    private final ExecutorService listeners;

    private final HashRing ring;

    private final int[] serverOfNode;

    /**
     * @param serverOfNode for each address given to the client, in order, the index of
     * its configured server
     */
    public PoolConnectionFactory(MemcachedProperties properties, ExecutorService listeners, HashRing ring,
            int[] serverOfNode) {
        super(properties.getOperationQueueLength(), DEFAULT_READ_BUFFER_SIZE);
        this.properties = properties;
        this.listeners = listeners;
        this.ring = ring;
        this.serverOfNode = serverOfNode.clone();
    }

    @Override
    public NodeLocator createLocator(List<MemcachedNode> nodes) {
        return new RingLocator(ring, properties.getServers().size(), nodes, serverOfNode);
    }

    @Override
    public OperationFactory getOperationFactory() {
        return properties.getProtocol() == Protocol.BINARY ? new BinaryOperationFactory() : new AsciiOperationFactory();
    }

    // Cancel: while a server is down its operations fail at once. Redistribute would
    // queue them behind the reconnect, or move keys to another server and serve stale
    // items once it returns.
    @Override
    public FailureMode getFailureMode() {
        return FailureMode.Cancel;
    }

    @Override
    public BlockingQueue<Operation> createOperationQueue() {
        return new ArrayOperationQueueFactory(properties.getOperationQueueLength()).create();
    }

    // 0: a full queue fails the caller at once. The default waits 10 s, on a Netty event
    // loop here.
    @Override
    public long getOpQueueMaxBlockTime() {
        return 0;
    }

    @Override
    public MemcachedConnection createConnection(List<InetSocketAddress> addresses) throws IOException {
        return new WatchedConnection(getReadBufSize(), this, addresses, properties.getOperationTimeout());
    }

    // spymemcached drops an operation that waited this long in its queue, unwritten, as
    // timed out: memcached's failure to the caller, although memcached never saw it. The
    // deadlines judge whose time ran out (see OperationDeadlines); by the longest wait
    // they allow, the caller has gone and what is left is only dropped. Only a pause of
    // the whole gateway can let both run out at once, and then spymemcached's timeout
    // fails the caller as the gateway's delay (FutureOutcome).
    @Override
    public long getOperationTimeout() {
        return properties.getOperationTimeout().plus(properties.getMaxGatewayDelay()).toMillis();
    }

    @Override
    public long getMaxReconnectDelay() {
        return Math.max(1, properties.getMaxReconnectDelay().toSeconds());
    }

    @Override
    public int getTimeoutExceptionThreshold() {
        return properties.getTimeoutExceptionThreshold();
    }

    // Listeners run on spymemcached's I/O thread and only hand each completion over (see
    // CompletionThreads); the executor outlives each client, since the pool replaces
    // clients when addresses change.
    @Override
    public ExecutorService getListenerExecutorService() {
        return listeners;
    }

    @Override
    public boolean isDefaultExecutorService() {
        return false;
    }

    // Lookups that queue up for one server while its connection is busy go out as one
    // multi-get: fewer commands for memcached to parse and fewer answers to read, which
    // is most of what a hit costs under load.
    @Override
    public boolean shouldOptimize() {
        return properties.isMergeLookups();
    }

    @Override
    public boolean isDaemon() {
        return true;
    }

}
