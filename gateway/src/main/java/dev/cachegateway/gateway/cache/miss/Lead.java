package dev.cachegateway.gateway.cache.miss;

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

    @Override
    public void share(CapturedResponse answer) {
        ticket.share(answer);
    }

    @Override
    public void stored() {
        ticket.end();
        replicas.release(claim);
    }

    @Override
    public void release() {
        // A shared answer keeps the lock until it is stored, so that other replicas find the item.
        if (ticket.release()) {
            replicas.release(claim);
        }
    }
}
