package dev.cachegateway.gateway.cache.stale;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.BackendFallback;
import dev.cachegateway.gateway.cache.miss.Claim;
import dev.cachegateway.gateway.cache.miss.LockHold;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * Refreshes a stale item from the backend in the background, once across all replicas:
 * within this gateway, one refresh per key at a time; among replicas, the one that adds
 * the key's lock item ({@link ReplicaLocks}), and none while the lock says an answer was
 * just stored. The lock lives for the lock timeout, and a refresh that takes longer is
 * given up, so a refresher that fails or dies leaves the key to the next stale hit after
 * at most that long. A lookup that memcached itself chose to refresh early
 * ({@code mg ... R}) needs no lock: memcached told every other lookup that one had won.
 */
public final class BackgroundRefresh {

    private final ReplicaLocks replicas;

    private final Duration lockTimeout;

    private final Set<String> refreshing = ConcurrentHashMap.newKeySet();

    public BackgroundRefresh(ReplicaLocks replicas, Duration lockTimeout) {
        this.replicas = replicas;
        this.lockTimeout = lockTimeout;
    }

    /** How many keys are being refreshed now. */
    public int underWay() {
        return refreshing.size();
    }

    /**
     * Starts a refresh of {@code key} with the client's request, unless one is under way;
     * returns at once and never fails. {@code chosen} says memcached chose this lookup to
     * refresh, so no lock is taken.
     */
    public void refresh(ServerWebExchange exchange, GatewayFilterChain chain, String key, BackendFallback backend,
            boolean chosen) {
        if (!refreshing.add(key)) {
            return;
        }
        Mono<Claim> claim = chosen ? Mono.just(Claim.NONE) : replicas.claim(key);
        claim.flatMap(held -> {
            // "Stored": a new answer landed a moment ago, after this lookup read the old
            // one; what memcached holds now needs no refresh.
            if (held.taken() || held == Claim.STORED) {
                return Mono.<Void>empty();
            }
            Lease lease = new Lease(key, held);
            return backend.fetch(detach(exchange), chain, key, CacheOutcome.detached(), lease)
                .timeout(lockTimeout)
                .doOnError(failure -> lease.release());
        }).doFinally(signal -> refreshing.remove(key)).onErrorResume(failure -> Mono.empty()).subscribe();
    }

    private static ServerWebExchange detach(ServerWebExchange exchange) {
        return exchange.mutate()
            .request(new RefreshRequest(exchange.getRequest()))
            .response(new DetachedResponse(exchange.getResponse().bufferFactory()))
            .build();
    }

    /**
     * The refresh's hold on the lock: given back once the new item is stored, or once
     * there is none to store.
     */
    private final class Lease implements Waiters {

        private final LockHold hold;

        private final AtomicBoolean storing = new AtomicBoolean();

        Lease(String key, Claim claim) {
            this.hold = new LockHold(replicas, key, claim);
        }

        @Override
        public void share(CapturedResponse response, long askedAt) {
            hold.shared(response);
            storing.set(true);
        }

        @Override
        public Mono<Boolean> storing() {
            return hold.storing();
        }

        // As a miss's lead does: a stale hit whose lookup came just before the store
        // landed, on any replica, then finds the lock saying "stored" and starts no
        // second refresh.
        @Override
        public void stored() {
            hold.stored();
        }

        // Nothing new was stored: the next stale hit may refresh at once.
        @Override
        public void dropped() {
            hold.release();
        }

        @Override
        public void release() {
            // A store under way keeps the lock, so that no other replica refreshes before
            // the new item lands.
            if (!storing.get()) {
                hold.release();
            }
        }

    }

}
