package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * What a write waits for between its mark and its delete: a store that a replica said
 * "storing" of in the key's lock before its last check for a write
 * ({@link HeldLock#storing}). That check may have come before the mark, so the store may
 * land after the delete; waiting until the word is gone puts the delete after it. A store
 * that says "storing" after the mark has its last check after the mark, and stores
 * nothing.
 */
public final class StoresUnderWay {

    // How often a write looks whether the store has ended: a store takes a round trip or
    // two.
    private static final Duration POLL = Duration.ofMillis(5);

    private final ReactiveMemcached memcached;

    private final Duration lockTimeout;

    private final boolean enabled;

    public StoresUnderWay(ReactiveMemcached memcached, Duration lockTimeout, boolean enabled) {
        this.memcached = memcached;
        this.lockTimeout = lockTimeout;
        this.enabled = enabled;
    }

    /**
     * Completes once no replica says "storing" in the lock of {@code key}, within the
     * lock timeout; true if one did.
     */
    public Mono<Boolean> await(String key) {
        String lockKey = LockKey.of(key);
        if (!enabled || !MemcachedLimits.fitsKeyLength(lockKey)) {
            return Mono.just(false);
        }
        Mono<Boolean> storing = memcached.get(lockKey)
            .map(lock -> LockWord.of(lock).saysStoring())
            .defaultIfEmpty(false)
            .onErrorReturn(false);
        return storing.flatMap(first -> !first ? Mono.just(false)
                : storing.filter(still -> !still)
                    .repeatWhenEmpty(rounds -> rounds.concatMap(n -> Mono.delay(POLL)))
                    .timeout(lockTimeout, Mono.just(false))
                    .thenReturn(true));
    }

}
