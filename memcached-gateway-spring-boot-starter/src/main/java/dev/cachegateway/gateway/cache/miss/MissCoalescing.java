package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.miss.Followers.Fallbacks;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.trace.CacheSpans;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * Misses for one key that arrive together share one backend call, as with nginx's
 * {@code proxy_cache_lock}: within this gateway the first leads and the others wait for
 * its answer ({@link InFlightRequests}); across replicas the leaders take a lock in
 * memcached and all but one wait for the item it stores ({@link ReplicaLocks}). Nobody
 * waits longer than the lock timeout before asking the backend itself.
 */
public final class MissCoalescing {

    private final InFlightRequests inFlight;

    private final ReplicaLocks replicas;

    private final BackendFallback backend;

    private final WriteFences fences;

    private final Followers followers;

    private final LeadingMiss leading;

    // How long a lead whose client left may still take: its followers wait no longer.
    private final Duration lockTimeout;

    private final CacheSpans spans;

    public MissCoalescing(InFlightRequests inFlight, ReplicaLocks replicas, WriteFences fences, BackendFallback backend,
            ItemFormat format, FreshAnswers answers, Duration lockTimeout, CacheSpans spans) {
        this.inFlight = inFlight;
        this.replicas = replicas;
        this.fences = fences;
        this.backend = backend;
        this.followers = new Followers(fences, backend, format, lockTimeout, replicas);
        this.leading = new LeadingMiss(backend, replicas, answers, format);
        this.lockTimeout = lockTimeout;
        this.spans = spans;
    }

    /**
     * Follows a request for {@code key} that is on its way to the backend now, without
     * looking memcached up, if there is one: a lookup would miss, and its answer could
     * come back after the leader's store ends. If the leader has no answer to share,
     * {@code lookUp} answers: memcached may hold a stale item that can stand in for a
     * backend that failed the leader.
     */
    public Optional<Mono<Void>> joinInFlight(ServerWebExchange exchange, GatewayFilterChain chain, String key,
            CacheOutcome outcome, Supplier<Mono<Void>> lookUp) {
        if (!backend.stores(exchange.getRequest())) {
            return Optional.empty();
        }
        return inFlight.follow(key)
            .map(ticket -> follow(exchange, chain, key, ticket, outcome,
                    new Fallbacks(lookUp, lookUp, variant -> lookUp.get())));
    }

    /** Whether a miss for {@code key} is on its way to the backend now. */
    public boolean inFlight(String key) {
        return inFlight.follow(key).isPresent();
    }

    /**
     * The answer to a request whose lookup missed; {@code lookedUpAt}, by
     * {@link System#nanoTime()}, is when the lookup was sent, so that one sent before a
     * lead's store landed follows that lead rather than leading again.
     */
    public Mono<Void> miss(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            long lookedUpAt) {
        return miss(exchange, chain, key, outcome, false, lookedUpAt);
    }

    /**
     * The answer to a request whose lookup found a stale item. Another replica may have
     * stored its successor and let the lock go between that lookup and this one's lock,
     * so memcached is asked once more before the backend.
     */
    public Mono<Void> missAfterStale(ServerWebExchange exchange, GatewayFilterChain chain, String key,
            CacheOutcome outcome) {
        // As if looked up now: the lookup found an item, so an answer that ended its lead
        // is no better than that.
        return miss(exchange, chain, key, outcome, true, System.nanoTime());
    }

    private Mono<Void> miss(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            boolean recheck, long lookedUpAt) {
        if (!backend.stores(exchange.getRequest())) {
            return backend.pass(exchange, chain, outcome);
        }
        return miss(exchange, chain, key, key, outcome, recheck, lookedUpAt);
    }

    // flightKey: what the request shares a lead under in this gateway, the key or the key
    // of one of its variants.
    private Mono<Void> miss(ServerWebExchange exchange, GatewayFilterChain chain, String key, String flightKey,
            CacheOutcome outcome, boolean recheck, long lookedUpAt) {
        Ticket ticket = inFlight.enter(flightKey, lookedUpAt);
        if (!ticket.leads()) {
            return follow(exchange, chain, key, ticket, outcome,
                    new Fallbacks(() -> backend.fetch(exchange, chain, key, outcome, new LoneFetch(replicas, key)),
                            () -> miss(exchange, chain, key, flightKey, outcome, recheck, lookedUpAt),
                            variant -> miss(exchange, chain, key, variant, outcome, recheck, lookedUpAt)));
        }
        // The fence is taken before the backend is asked, so that a write after it keeps
        // its answer out. A lead goes on if its client leaves: its followers and the next
        // request for the key want its answer.
        Mono<Claim> claim = spans.observe(exchange, CacheSpans.LOCK, key, replicas.claim(key), Claim::result);
        return OutlivesClient.of(Mono.zip(claim, fences.take(key)).flatMap(taken -> {
            ticket.fenced(taken.getT2());
            return leading.lead(exchange, chain, key, outcome, new Lead(ticket, taken.getT1(), replicas, key),
                    taken.getT2(), recheck);
        }).doFinally(signal -> ticket.release()), ticket::clientLeft, lockTimeout);
    }

    private Mono<Void> follow(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket,
            CacheOutcome outcome, Fallbacks fallbacks) {
        return spans.observeAnswer(exchange, CacheSpans.FOLLOW, key,
                followers.follow(exchange, chain, key, ticket, outcome, fallbacks),
                () -> CacheMetrics.tag(outcome.status()));
    }

}
