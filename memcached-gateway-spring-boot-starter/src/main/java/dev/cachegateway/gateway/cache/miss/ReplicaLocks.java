package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * Coalescing across gateway replicas that share memcached, with memcached as the lock. A
 * replica's leading miss {@code add}s a short-lived lock item next to the key; the
 * replica that adds it asks the backend, and the others poll memcached for the item it
 * stores. The lock lives for the lock timeout rounded up to seconds, so a replica that
 * dies holding it blocks the key no longer than that; it is deleted once the answer is
 * known not to be stored. Once it is stored, the lock says so for a second or two more,
 * so that a replica whose lookup missed just before the store landed finds the item
 * rather than asking the backend again. Off, for a gateway that runs alone, no lock is
 * taken and a miss costs three memcached operations fewer (five without meta commands).
 */
public final class ReplicaLocks {

    private final ReactiveMemcached memcached;

    private final Duration lockTimeout;

    private final int ttlSeconds;

    private final boolean enabled;

    private final StoredLockTakeover takeover;

    public ReplicaLocks(ReactiveMemcached memcached, Duration lockTimeout, boolean enabled) {
        this.memcached = memcached;
        this.lockTimeout = lockTimeout;
        this.enabled = enabled;
        // Rounded up, and at least 1: memcached reads an expiry of 0 as "never".
        this.ttlSeconds = (int) Math.max(1, (lockTimeout.toMillis() + 999) / 1000);
        this.takeover = new StoredLockTakeover(memcached, ttlSeconds);
    }

    /**
     * Tries to take the lock of {@code key}; never fails: a memcached error means no
     * lock, so go on alone. A lock that says "stored" is {@link Claim#STORED}: the caller
     * looks once more, then claims it past the word ({@link #claimPastStored}).
     */
    public Mono<Claim> claim(String key) {
        String lockKey = LockKey.of(key);
        if (!locked(lockKey)) {
            return Mono.just(Claim.NONE);
        }
        HeldLock mine = new HeldLock(memcached, lockKey, ttlSeconds);
        return mine.take(false)
            .flatMap(added -> added ? Mono.<Claim>just(mine)
                    : memcached.get(lockKey)
                        .map(lock -> LockWord.of(lock).saysStored() ? Claim.STORED : Claim.TAKEN)
                        .defaultIfEmpty(Claim.TAKEN))
            .onErrorReturn(Claim.NONE);
    }

    /**
     * Claims the lock of {@code key} once more after a claim said {@link Claim#STORED}
     * and no item was found: a lock that still says so is taken over
     * ({@link StoredLockTakeover}). Never fails, as {@link #claim}.
     */
    public Mono<Claim> claimPastStored(String key) {
        String lockKey = LockKey.of(key);
        if (!locked(lockKey)) {
            return Mono.just(Claim.NONE);
        }
        return takeover.takeOver(lockKey).switchIfEmpty(Mono.defer(() -> claim(key))).onErrorReturn(Claim.NONE);
    }

    // Whether keys take a lock at all: not where locks are off, nor where the lock's key
    // would be too long for memcached.
    private boolean locked(String lockKey) {
        return enabled && MemcachedLimits.fitsKeyLength(lockKey);
    }

    /** How long a replica waits for the lock of a key another one fetches. */
    public Duration lockTimeout() {
        return lockTimeout;
    }

    /**
     * The item another replica stores under {@code key}, as {@code find} finds it (by the
     * format's freshness, for the request's variant), polled for every 20 to 50 ms; empty
     * once its lock is gone without an item, {@code within} passes, or memcached fails.
     */
    public Mono<CachedItem> awaitItem(String key, Supplier<Mono<CachedItem>> find, Duration within) {
        String lockKey = LockKey.of(key);
        // The lock first: it goes, or says "stored", only after the item is stored, so
        // "no lock" or "stored" then "no item" is a true absence. A stale item is still
        // there while another replica fetches its successor: only a fresh one is the
        // answer.
        Mono<CachedItem> round = memcached.get(lockKey)
            .map(lock -> !LockWord.of(lock).saysStored())
            .defaultIfEmpty(false)
            .flatMap(fetching -> find.get().switchIfEmpty(fetching ? Mono.empty() : Mono.error(new LockGone())));
        return round.repeatWhenEmpty(rounds -> rounds.concatMap(n -> Mono.delay(pause(n))))
            .timeout(within, Mono.empty())
            .onErrorResume(failure -> Mono.empty());
    }

    // 20 ms, then 10 ms more each round up to 50: quick for a fast backend, light on
    // memcached for a slow one.
    private static Duration pause(long round) {
        return Duration.ofMillis(Math.min(50, 20 + 10 * round));
    }

    /**
     * Gives a held lock back once its answer is stored, or known not to be: it says
     * "stored" for a short while, so that a replica that claims it just after the store
     * lands waits for the item, and finds it at once, rather than leading again. A failed
     * write leaves the lock to expire, as a failed {@link #release} does.
     */
    public void stored(Claim claim) {
        if (claim instanceof HeldLock held) {
            held.stored();
        }
    }

    /**
     * Says in the key's lock that an answer is being stored, before the store's last
     * check for a write: a write that finds the word waits for the store to end
     * ({@link StoresUnderWay}), and one that does not find it marked its write before
     * that check, which then keeps the answer out. A fetch that holds the lock writes the
     * word into it; one that does not (it went on alone after the lock timeout, after a
     * "stored" lock, or after a write took its lock) takes the lock with the word, so
     * that no store goes unannounced. The claim to store under, the one held or the one
     * taken now; empty if the store must not go on: another replica fetches or stores the
     * key, and its answer is the one memcached gets, or memcached failed. The claim as it
     * is where locks are off or the key is too long for one: then nothing holds a write
     * back.
     */
    public Mono<Claim> storing(String key, Claim claim) {
        return storing(key, claim, false);
    }

    /**
     * The same; with {@code awaitHolder}, a fetch that holds the lock is waited for,
     * within the lock timeout, rather than taken to store this answer: the variants of a
     * key share its lock, and the holder may fetch another variant.
     */
    public Mono<Claim> storing(String key, Claim claim, boolean awaitHolder) {
        String lockKey = LockKey.of(key);
        if (!locked(lockKey)) {
            return Mono.just(claim);
        }
        // A lock that says "stored" is held by nobody: a store that ended leaves it for a
        // moment. It is taken over, by its CAS unique, so that a refresh right after a
        // store is stored too.
        Mono<Claim> taken = Mono.defer(() -> {
            HeldLock mine = new HeldLock(memcached, lockKey, ttlSeconds);
            return mine.take(true)
                .flatMap(added -> added ? Mono.just(true)
                        : memcached.gets(lockKey)
                            .filter(lock -> LockWord.of(lock.item()).saysStored())
                            .flatMap(stored -> mine.takeOver(stored.cas(), true)))
                .filter(said -> said)
                .map(said -> mine);
        });
        Mono<Claim> free = !awaitHolder ? taken
                : taken.repeatWhenEmpty(rounds -> rounds.concatMap(n -> Mono.delay(pause(n))))
                    .timeout(lockTimeout, Mono.empty());
        Mono<Claim> announced = claim instanceof HeldLock held
                ? held.storing().filter(said -> said).<Claim>map(said -> held).switchIfEmpty(free) : free;
        return announced.onErrorResume(failure -> Mono.empty());
    }

    /**
     * Gives a held lock back, once; a failed delete only leaves it to expire, so nobody
     * waits for its answer.
     */
    public void release(Claim claim) {
        if (claim instanceof HeldLock held) {
            held.release();
        }
    }

    private static final class LockGone extends RuntimeException {

        LockGone() {
            super(null, null, false, false);
        }

    }

}
