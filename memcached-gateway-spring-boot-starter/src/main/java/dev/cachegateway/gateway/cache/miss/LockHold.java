package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
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
        return replicas.storing(key, claim, varies).map(held -> {
            claim = held;
            return true;
        }).defaultIfEmpty(false);
    }

    private volatile boolean varies;

    /**
     * The answer that will be stored: whether it varies decides what {@link #stored}
     * does.
     */
    public void shared(CapturedResponse answer) {
        varies = Variants.varies(answer.headers());
    }

    /**
     * The answer is stored: the lock says so for a moment ({@link ReplicaLocks#stored}),
     * so that a replica that claims it then takes the item rather than asking again. The
     * lock of an answer that varies goes instead: the item answers its own variant only,
     * and a replica that needs another would then ask the backend without a lock.
     */
    public void stored() {
        if (varies) {
            replicas.release(claim);
        }
        else {
            replicas.stored(claim);
        }
    }

    /** Gives the lock back ({@link ReplicaLocks#release}). */
    public void release() {
        replicas.release(claim);
    }

}
