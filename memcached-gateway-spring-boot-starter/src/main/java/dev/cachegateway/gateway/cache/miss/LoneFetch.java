package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import reactor.core.publisher.Mono;

/**
 * A request that asks the backend alone, after the lead it followed failed it or kept it
 * waiting too long. Nobody waits for its answer, but its store takes the key's lock to
 * say "storing", as a lead's does, so that a write waits for it rather than being undone
 * by it ({@link ReplicaLocks#storing}); and it gives the lock back after.
 */
final class LoneFetch implements Waiters {

    private final LockHold hold;

    LoneFetch(ReplicaLocks replicas, String key) {
        this.hold = new LockHold(replicas, key, Claim.NONE);
    }

    // Whether it varies decides whether a fetch that holds the lock is waited for.
    @Override
    public void share(CapturedResponse answer, long askedAt) {
        hold.shared(answer);
    }

    @Override
    public Mono<Boolean> storing() {
        return hold.storing();
    }

    @Override
    public void stored() {
        hold.release();
    }

}
