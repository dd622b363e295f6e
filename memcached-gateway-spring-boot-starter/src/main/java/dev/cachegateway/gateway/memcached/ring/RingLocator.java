package dev.cachegateway.gateway.memcached.ring;

import java.util.Arrays;
import java.util.Collection;
import java.util.Collections;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;

import net.spy.memcached.MemcachedNode;
import net.spy.memcached.NodeLocator;

/**
 * Places keys for spymemcached by our ring. spymemcached's own Ketama locator names
 * servers by their resolved address and ignores the name format it is given, so it cannot
 * agree with libmemcached or nginx. A server whose name has not resolved yet has no node:
 * its keys fail rather than move to another server.
 */
public final class RingLocator implements NodeLocator {

    private final HashRing ring;

    private final MemcachedNode[] nodesByServer;

    /**
     * @param serverOfNode for each of spymemcached's nodes, in its order, the index of
     * its configured server
     */
    public RingLocator(HashRing ring, int servers, List<MemcachedNode> nodes, int[] serverOfNode) {
        this.ring = ring;
        this.nodesByServer = new MemcachedNode[servers];
        for (int i = 0; i < nodes.size(); i++) {
            nodesByServer[serverOfNode[i]] = nodes.get(i);
        }
    }

    private RingLocator(HashRing ring, MemcachedNode[] nodesByServer) {
        this.ring = ring;
        this.nodesByServer = nodesByServer;
    }

    /**
     * The node of the configured server at {@code index}, or null while its name has no
     * address.
     */
    public MemcachedNode node(int index) {
        return nodesByServer[index];
    }

    @Override
    public MemcachedNode getPrimary(String key) {
        MemcachedNode node = nodesByServer[ring.serverFor(key)];
        if (node == null) {
            // Asked only if a key slips past the pool's own check; an exception fails
            // that one operation.
            throw new IllegalStateException("the memcached server of this key has no address yet");
        }
        return node;
    }

    // Only FailureMode.Redistribute asks for other nodes, and the gateway never moves a
    // key.
    @Override
    public Iterator<MemcachedNode> getSequence(String key) {
        return Collections.emptyIterator();
    }

    @Override
    public Collection<MemcachedNode> getAll() {
        return Arrays.stream(nodesByServer).filter(Objects::nonNull).toList();
    }

    @Override
    public NodeLocator getReadonlyCopy() {
        return new RingLocator(ring, nodesByServer.clone());
    }

    @Override
    public void updateLocator(List<MemcachedNode> nodes) {
        throw new UnsupportedOperationException("the pool builds a new client when addresses change");
    }

}
