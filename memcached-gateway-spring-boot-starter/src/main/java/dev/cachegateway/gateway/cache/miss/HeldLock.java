package dev.cachegateway.gateway.cache.miss;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * This replica's lock on a key. Its item holds a word of its own, so that the lock is
 * given back, or said to be storing or stored, only while it is still this replica's: a
 * write deletes a key's lock, and another replica may hold the next one by the time this
 * one's fetch ends.
 */
final class HeldLock implements Claim {

    // Memcached's clock ticks in whole seconds: 2 keeps the word for more than one.
    private static final int STORED_SECONDS = 2;

    private final ReactiveMemcached memcached;

    private final String lockKey;

    private final int ttlSeconds;

    private final String token = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);

    private final AtomicBoolean released = new AtomicBoolean();

    HeldLock(ReactiveMemcached memcached, String lockKey, int ttlSeconds) {
        this.memcached = memcached;
        this.lockKey = lockKey;
        this.ttlSeconds = ttlSeconds;
    }

    /** The item that takes the lock. */
    CachedItem locked() {
        return LockWord.locked(token).item();
    }

    /** The item that takes the lock to say at once that an answer is being stored. */
    CachedItem storingNow() {
        return LockWord.storing(token).item();
    }

    /**
     * Says the answer is being stored, where the lock is still this one; see
     * {@link StoresUnderWay}. True if it said so.
     */
    Mono<Boolean> storing() {
        return released.get() ? Mono.just(false)
                : ifOwn(memcached.set(lockKey, ttlSeconds, LockWord.storing(token).item())).defaultIfEmpty(false);
    }

    /**
     * Says the answer is stored, for a moment, where the lock is still this one; once.
     */
    void stored() {
        if (released.compareAndSet(false, true)) {
            ifOwn(memcached.set(lockKey, STORED_SECONDS, LockWord.stored().item())).subscribe(set -> {
            }, failure -> {
            });
        }
    }

    /**
     * Gives the lock back where it is still this one; once. A failed delete leaves it to
     * expire.
     */
    void release() {
        if (released.compareAndSet(false, true)) {
            ifOwn(memcached.delete(lockKey)).subscribe(deleted -> {
            }, failure -> {
            });
        }
    }

    // Read, then written: another replica can take the lock only once it is gone, which
    // takes a write or an expiry in between, a far narrower window than a whole fetch.
    private Mono<Boolean> ifOwn(Mono<Boolean> change) {
        return memcached.get(lockKey)
            .filter(lock -> LockWord.of(lock).heldBy(token))
            .flatMap(own -> change)
            .onErrorReturn(false);
    }

}
