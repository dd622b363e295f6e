package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import reactor.core.publisher.Mono;

/**
 * A leading miss: its followers in this gateway, and its lock among the replicas. A
 * shared answer keeps both until it is stored; anything else lets them go at once.
 */
final class Lead implements Waiters {

    private final Ticket ticket;

    private final LockHold hold;

    private final ReplicaLocks replicas;

    // The key of the item the lead stores, which its ticket's key is, or holds as the key
    // of one variant.
    private final String key;

    Lead(Ticket ticket, Claim claim, ReplicaLocks replicas, String key) {
        this.ticket = ticket;
        this.hold = new LockHold(replicas, key, claim);
        this.replicas = replicas;
        this.key = key;
    }

    /**
     * The same lead with another claim of the lock, taken after its first one came to
     * nothing.
     */
    Lead with(Claim again) {
        return new Lead(ticket, again, replicas, key);
    }

    /** Whether another replica holds the lock. */
    boolean waitsForAnotherReplica() {
        return hold.claim().taken();
    }

    /**
     * Whether another replica stored its answer a moment ago, so that memcached is worth
     * one more look.
     */
    boolean followsAStore() {
        return hold.claim() == Claim.STORED;
    }

    @Override
    public void share(CapturedResponse answer, long askedAt) {
        hold.shared(answer);
        ticket.share(answer, askedAt);
    }

    @Override
    public void stored() {
        ticket.end(key);
        hold.stored();
    }

    @Override
    public Mono<Boolean> storing() {
        return hold.storing();
    }

    // Nothing was stored: the lock goes, and the write that waits for it to stop saying
    // "storing" goes on. Left saying "stored", it would send every replica that claims it
    // to the backend without a lock.
    @Override
    public void dropped() {
        ticket.end(key);
        hold.release();
    }

    @Override
    public void release() {
        // A shared answer keeps the lock until it is stored, so that other replicas find
        // the item.
        if (ticket.release()) {
            hold.release();
        }
    }

}
