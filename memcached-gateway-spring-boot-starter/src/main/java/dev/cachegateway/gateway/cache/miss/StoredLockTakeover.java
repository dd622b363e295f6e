package dev.cachegateway.gateway.cache.miss;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * Takes over a key's lock that says "stored" when the item it speaks of is gone: a write
 * on another replica, a purge by tag or an eviction took it within the second or two the
 * word lives. Left as it is, the word would send every replica that misses to the backend
 * without a lock, each on its own. It is replaced by its CAS unique, so that of the
 * replicas that find it at once one holds the lock and the others wait for its item.
 */
final class StoredLockTakeover {

    private final ReactiveMemcached memcached;

    private final int ttlSeconds;

    StoredLockTakeover(ReactiveMemcached memcached, int ttlSeconds) {
        this.memcached = memcached;
        this.ttlSeconds = ttlSeconds;
    }

    /**
     * This replica's lock in place of a "stored" word; {@link Claim#TAKEN} where another
     * word is there, or another replica replaced it first; empty where the lock is gone,
     * so that the caller claims it as any miss does. Fails where memcached fails.
     */
    Mono<Claim> takeOver(String lockKey) {
        HeldLock mine = new HeldLock(memcached, lockKey, ttlSeconds);
        return memcached.gets(lockKey).flatMap(lock -> {
            if (!LockWord.of(lock.item()).saysStored()) {
                return Mono.just(Claim.TAKEN);
            }
            return mine.takeOver(lock.cas(), false).map(replaced -> replaced ? mine : Claim.TAKEN);
        });
    }

}
