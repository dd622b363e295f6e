package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.InFlightRequests.Ticket;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * The requests that follow a lead in flight in this gateway: each waits for the leader's answer, no longer than the
 * lock timeout, unless a write to the key was marked since the leader asked the backend ({@link WriteFences}); a
 * request that arrives after a write never takes an answer that may predate it.
 */
final class Followers {

    private final WriteFences fences;

    private final BackendFallback backend;

    private final ItemFormat format;

    private final Duration lockTimeout;

    Followers(WriteFences fences, BackendFallback backend, ItemFormat format, Duration lockTimeout) {
        this.fences = fences;
        this.backend = backend;
        this.format = format;
        this.lockTimeout = lockTimeout;
    }

    // A lead from before a write that this request arrived after is not this request's to join: it leaves the lead,
    // so that no later request joins it either, and starts again as afterWrite says.
    Mono<Void> follow(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket,
            CacheOutcome outcome, Supplier<Mono<Void>> afterFailedLeader, Supplier<Mono<Void>> afterWrite) {
        return ticket.fence().flatMap(fences::allowsJoining).defaultIfEmpty(true).flatMap(joins -> {
            if (!joins) {
                ticket.leave();
                return afterWrite.get();
            }
            return awaitLeader(exchange, chain, key, ticket, outcome, afterFailedLeader);
        });
    }

    // A leader that ends with nothing to share leaves its followers to afterFailedLeader; one that takes longer than
    // the lock timeout, or shares an answer a follower cannot take, leaves them to ask the backend themselves.
    private Mono<Void> awaitLeader(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket,
            CacheOutcome outcome, Supplier<Mono<Void>> afterFailedLeader) {
        AtomicBoolean waitedTooLong = new AtomicBoolean();
        return ticket.answer()
                .timeout(lockTimeout, Mono.fromRunnable(() -> waitedTooLong.set(true)))
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(shared -> {
                    // The leader's answer may be gzip for a client that takes it, or the variant of another client;
                    // one that cannot take it asks itself.
                    if (shared.isEmpty() || !format.canAnswer(exchange.getRequest().getHeaders(), shared.get())) {
                        outcome.collapseFailed();
                        return shared.isEmpty() && !waitedTooLong.get() ? afterFailedLeader.get()
                                : backend.fetch(exchange, chain, key, outcome, Waiters.NONE);
                    }
                    outcome.coalesced();
                    return CapturedResponseWriter.write(exchange, shared.get());
                });
    }
}
