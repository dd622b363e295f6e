package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.cache.miss.ReplicaLocks.Claim;
import reactor.core.publisher.Mono;

/**
 * A fetch's hold on its key's lock: the claim it asked the backend under, then the one it
 * stores under, which differ when it went on without the lock, or lost it while it
 * fetched ({@link ReplicaLocks#storing}).
 */
public final class LockHold {

    private final ReplicaLocks replicas;

    private final String key;

    private volatile Claim claim;

    public LockHold(ReplicaLocks replicas, String key, Claim claim) {
        this.replicas = replicas;
        this.key = key;
        this.claim = claim;
    }

    /** The claim held now. */
    public Claim claim() {
        return claim;
    }

    /**
     * Says the answer is being stored, as {@link ReplicaLocks#storing} does; false if it
     * must not be.
     */
    public Mono<Boolean> storing() {
        return replicas.storing(key, claim).map(held -> {
            claim = held;
            return true;
        }).defaultIfEmpty(false);
    }

    /**
     * The answer is stored: the lock says so for a moment ({@link ReplicaLocks#stored}).
     */
    public void stored() {
        replicas.stored(claim);
    }

    /** Gives the lock back ({@link ReplicaLocks#release}). */
    public void release() {
        replicas.release(claim);
    }

}
