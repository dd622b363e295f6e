package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.InFlightRequests.Ticket;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks.Claim;
import dev.cachegateway.gateway.cache.response.CapturedResponse;

/**
 * A leading miss: its followers in this gateway, and its lock among the replicas. A shared answer keeps both until
 * it is stored; anything else lets them go at once.
 */
final class Lead implements Waiters {

    private final Ticket ticket;

    private final Claim claim;

    private final ReplicaLocks replicas;

    Lead(Ticket ticket, Claim claim, ReplicaLocks replicas) {
        this.ticket = ticket;
        this.claim = claim;
        this.replicas = replicas;
    }

    /** Whether another replica holds the lock. */
    boolean waitsForAnotherReplica() {
        return claim.taken();
    }

    /** Whether another replica stored its answer a moment ago, so that memcached is worth one more look. */
    boolean followsAStore() {
        return claim == Claim.STORED;
    }

    private volatile boolean varies;

    @Override
    public void share(CapturedResponse answer) {
        varies = Variants.varies(answer.headers());
        ticket.share(answer);
    }

    // A lock that says "stored" sends a replica that claims it to the item, which answers only its own variant: one
    // that needs another variant would then ask the backend without a lock. So the lock of a varying answer goes.
    @Override
    public void stored() {
        ticket.end();
        if (varies) {
            replicas.release(claim);
        }
        else {
            replicas.stored(claim);
        }
    }

    @Override
    public void release() {
        // A shared answer keeps the lock until it is stored, so that other replicas find the item.
        if (ticket.release()) {
            replicas.release(claim);
        }
    }
}
