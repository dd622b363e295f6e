package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * The requests that follow a lead in flight in this gateway: each waits for the leader's
 * answer, no longer than the lock timeout, unless a write to the key was marked since the
 * leader asked the backend, or memcached cannot say ({@link WriteFences}); a request that
 * arrives after a write never takes an answer that may predate it.
 */
final class Followers {

    private final WriteFences fences;

    private final BackendFallback backend;

    private final ItemFormat format;

    private final Duration lockTimeout;

    private final ReplicaLocks replicas;

    Followers(WriteFences fences, BackendFallback backend, ItemFormat format, Duration lockTimeout,
            ReplicaLocks replicas) {
        this.fences = fences;
        this.backend = backend;
        this.format = format;
        this.lockTimeout = lockTimeout;
        this.replicas = replicas;
    }

    /**
     * What a follower does when the lead is not its to take.
     *
     * @param afterFailedLeader when the leader ended with nothing to share
     * @param afterWrite when a write came after the leader asked the backend
     * @param ofVariant when the leader shares another variant: given the in-flight key of
     * the request's own
     */
    record Fallbacks(Supplier<Mono<Void>> afterFailedLeader, Supplier<Mono<Void>> afterWrite,
            Function<String, Mono<Void>> ofVariant) {
    }

    // A lead from before a write that this request arrived after is not this request's to
    // join: it leaves the lead, so that no later request joins it either, and starts
    // again as afterWrite says.
    Mono<Void> follow(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket,
            CacheOutcome outcome, Fallbacks fallbacks) {
        return ticket.fence().flatMap(fences::allowsJoining).defaultIfEmpty(true).flatMap(joins -> {
            if (!joins) {
                ticket.leave();
                return fallbacks.afterWrite().get();
            }
            return awaitLeader(exchange, chain, key, ticket, outcome, fallbacks);
        });
    }

    // A leader that ends with nothing to share leaves its followers to afterFailedLeader;
    // one that shares another variant leaves them to lead or follow for their own; one
    // that takes longer than the lock timeout, or shares an answer a follower cannot take
    // otherwise, leaves them to ask the backend themselves.
    private Mono<Void> awaitLeader(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket,
            CacheOutcome outcome, Fallbacks fallbacks) {
        AtomicBoolean waitedTooLong = new AtomicBoolean();
        return ticket.answer()
            .timeout(lockTimeout, Mono.fromRunnable(() -> waitedTooLong.set(true)))
            .map(Optional::of)
            .defaultIfEmpty(Optional.empty())
            .flatMap(shared -> {
                // The leader's answer may be gzip for a client that takes it, or the
                // variant of another client.
                HttpHeaders request = exchange.getRequest().getHeaders();
                if (shared.isPresent() && !format.canAnswer(request, shared.get())
                        && Variants.varies(shared.get().headers())) {
                    return fallbacks.ofVariant().apply(Variants.flightKey(key, shared.get().headers(), request));
                }
                if (shared.isEmpty() || !format.canAnswer(request, shared.get())) {
                    outcome.collapseFailed();
                    return shared.isEmpty() && !waitedTooLong.get() ? fallbacks.afterFailedLeader().get()
                            : backend.fetch(exchange, chain, key, outcome, new LoneFetch(replicas, key));
                }
                outcome.coalesced();
                return CapturedResponseWriter.write(exchange, shared.get());
            });
    }

}
