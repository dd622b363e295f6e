package dev.cachegateway.gateway.cache.miss;

import static dev.cachegateway.gateway.memcached.CasWrites.CAS_UNKNOWN;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongFunction;

import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.CasWrites;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * This replica's lock on a key. Its item holds a word of its own, so that the lock is
 * given back, or said to be storing or stored, only while it is still this replica's: a
 * write deletes a key's lock, and another replica may hold the next one by the time this
 * one's fetch ends. Where memcached has meta commands the lock keeps the CAS unique of
 * the item it last wrote, and each change is one command that fails if the item is no
 * longer that one; elsewhere the item is read, then written.
 */
final class HeldLock implements Claim {

    // Memcached's clock ticks in whole seconds: 2 keeps the word for more than one.
    private static final int STORED_SECONDS = 2;

    private final ReactiveMemcached memcached;

    private final CasWrites casWrites;

    private final String lockKey;

    private final int ttlSeconds;

    private final String token = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);

    private final AtomicBoolean released = new AtomicBoolean();

    // Of the lock's item as this replica last wrote it.
    private volatile long cas = CAS_UNKNOWN;

    HeldLock(ReactiveMemcached memcached, String lockKey, int ttlSeconds) {
        this.memcached = memcached;
        this.casWrites = memcached.casWrites();
        this.lockKey = lockKey;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * Takes the lock where nobody holds it, saying that this replica fetches, or with
     * {@code storing} that it stores at once; true if it took it. Fails where memcached
     * fails.
     */
    Mono<Boolean> take(boolean storing) {
        return written(casWrites.add(lockKey, ttlSeconds, word(storing)));
    }

    /**
     * Takes the lock in place of the item with the CAS unique {@code cas}, as
     * {@link #take}; false where the item is no longer that one.
     */
    Mono<Boolean> takeOver(long itemCas, boolean storing) {
        return written(casWrites.setIfCas(lockKey, itemCas, ttlSeconds, word(storing)));
    }

    /**
     * Says the answer is being stored, where the lock is still this one; see
     * {@link StoresUnderWay}. True if it said so.
     */
    Mono<Boolean> storing() {
        if (released.get()) {
            return Mono.just(false);
        }
        return whileOwn(known -> written(casWrites.setIfCas(lockKey, known, ttlSeconds, word(true))),
                memcached.set(lockKey, ttlSeconds, word(true)))
            .defaultIfEmpty(false)
            .onErrorReturn(false);
    }

    /**
     * Says the answer is stored, for a moment, where the lock is still this one; once.
     */
    void stored() {
        if (released.compareAndSet(false, true)) {
            CachedItem stored = LockWord.stored().item();
            unanswered(whileOwn(known -> casWrites.setIfCas(lockKey, known, STORED_SECONDS, stored).hasElement(),
                    memcached.set(lockKey, STORED_SECONDS, stored)));
        }
    }

    /**
     * Gives the lock back where it is still this one; once. A failed delete leaves it to
     * expire.
     */
    void release() {
        if (released.compareAndSet(false, true)) {
            unanswered(whileOwn(known -> casWrites.deleteIfCas(lockKey, known), memcached.delete(lockKey)));
        }
    }

    private CachedItem word(boolean storing) {
        return (storing ? LockWord.storing(token) : LockWord.locked(token)).item();
    }

    private Mono<Boolean> written(Mono<Long> write) {
        return write.map(itemCas -> {
            cas = itemCas;
            return true;
        }).defaultIfEmpty(false);
    }

    // By the CAS unique of this replica's last write where it is known. Elsewhere read,
    // then written: another replica can take the lock only once it is gone, which takes
    // a write or an expiry in between, a far narrower window than a whole fetch.
    private Mono<Boolean> whileOwn(LongFunction<Mono<Boolean>> byCas, Mono<Boolean> change) {
        long known = cas;
        if (known != CAS_UNKNOWN) {
            return byCas.apply(known);
        }
        return memcached.get(lockKey)
            .filter(lock -> LockWord.of(lock).heldBy(token))
            .flatMap(own -> change)
            .onErrorReturn(false);
    }

    // Nobody waits on the outcome: a lock left behind expires.
    private static void unanswered(Mono<Boolean> change) {
        change.subscribe(done -> {
        }, failure -> {
        });
    }

}
