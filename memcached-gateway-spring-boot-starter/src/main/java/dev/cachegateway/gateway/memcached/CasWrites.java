package dev.cachegateway.gateway.memcached;

import static dev.cachegateway.gateway.memcached.NodeOperations.guarded;

import dev.cachegateway.gateway.memcached.pool.PoolClient;
import reactor.core.publisher.Mono;

/**
 * Writes that keep the CAS unique of the item they wrote, so that its writer can change
 * or delete that item later in one command that fails if anybody wrote or deleted the key
 * since: where the key's server has meta commands they go out as {@code ms ... c} and
 * {@code md ... C<cas>}. Elsewhere an add or a compare-and-swap is spymemcached's own and
 * gives {@link #CAS_UNKNOWN}: the caller then reads the item before it writes, as without
 * this class. Timed and guarded as the plain operations of the same kind.
 */
public final class CasWrites {

    /**
     * The CAS unique of an item written where the server has no meta commands. memcached
     * never gives an item 0.
     */
    public static final long CAS_UNKNOWN = 0;

    private final NodeOperations nodes;

    CasWrites(NodeOperations nodes) {
        this.nodes = nodes;
    }

    /**
     * Stores {@code item} under {@code key} only if no item is there; its CAS unique (or
     * {@link #CAS_UNKNOWN}), or an empty Mono where an item was there.
     */
    public Mono<Long> add(String key, int ttlSeconds, CachedItem item) {
        return nodes.onNodeOf(key, node -> {
            PoolClient meta = nodes.metaClientFor(node);
            return guarded(node, node.timers().add(),
                    meta != null ? nodes.meta(node, meta, () -> meta.metaAdd(key, ttlSeconds, item))
                            : nodes.add(node, key, ttlSeconds, item).filter(added -> added).map(added -> CAS_UNKNOWN));
        });
    }

    /**
     * Replaces the item under {@code key} only if it still has the CAS unique
     * {@code cas}; the new item's CAS unique (or {@link #CAS_UNKNOWN}), or an empty Mono
     * where the key was written or deleted since.
     */
    public Mono<Long> setIfCas(String key, long cas, int ttlSeconds, CachedItem item) {
        return nodes.onNodeOf(key, node -> {
            PoolClient meta = nodes.metaClientFor(node);
            return guarded(node, node.timers().cas(),
                    meta != null ? nodes.meta(node, meta, () -> meta.metaSetIfCas(key, cas, ttlSeconds, item))
                            : nodes.cas(node, key, cas, ttlSeconds, item)
                                .filter(replaced -> replaced)
                                .map(replaced -> CAS_UNKNOWN));
        });
    }

    /**
     * Deletes the item under {@code key} only if it still has the CAS unique {@code cas};
     * true if it did. Fails where the key's server has no meta commands: the text
     * protocol has no such delete.
     */
    public Mono<Boolean> deleteIfCas(String key, long cas) {
        return nodes.onNodeOf(key, node -> {
            PoolClient meta = nodes.metaClientFor(node);
            if (meta == null) {
                return Mono.error(new UnsupportedOperationException(
                        "no meta commands on " + node.server().text() + " to delete " + key + " by its CAS"));
            }
            return guarded(node, node.timers().delete(), nodes.meta(node, meta, () -> meta.metaDeleteIfCas(key, cas)));
        });
    }

}
