package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.format.DecodedItem;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * What the request that leads a miss in this gateway does: asks the backend, unless
 * another replica holds the key's lock, or the item may have landed since its lookup;
 * then it looks memcached up first, and shares what it finds with its followers.
 */
final class LeadingMiss {

    private final BackendFallback backend;

    private final ReplicaLocks replicas;

    private final FreshAnswers answers;

    private final ItemFormat format;

    LeadingMiss(BackendFallback backend, ReplicaLocks replicas, FreshAnswers answers, ItemFormat format) {
        this.backend = backend;
        this.replicas = replicas;
        this.answers = answers;
        this.format = format;
    }

    /**
     * The lead's answer, once it holds its fence; {@code recheck}: whether memcached is
     * asked once more before the backend, though no other replica holds the lock.
     */
    Mono<Void> lead(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome, Lead lead,
            Fence fence, boolean recheck) {
        return lead(exchange, chain, key, outcome, lead, fence, recheck,
                System.nanoTime() + replicas.lockTimeout().toNanos());
    }

    // A replica that waited for another's item, and found none, claims the lock again
    // before it asks the backend, as often as a holder gives it back without an item,
    // until the lock timeout since its first claim: asking without the lock, it would be
    // joined by nobody, and the next miss on any replica would take the free lock and ask
    // too.
    private Mono<Void> lead(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Lead lead, Fence fence, boolean recheck, long waitUntil) {
        if (!lead.waitsForAnotherReplica() && !lead.followsAStore() && !recheck) {
            return backend.fetch(exchange, chain, key, outcome, lead, fence);
        }
        Supplier<Mono<CachedItem>> find = () -> answers.find(key, exchange.getRequest().getHeaders());
        Mono<CachedItem> landed = lead.waitsForAnotherReplica()
                ? replicas.awaitItem(key, find, Duration.ofNanos(Math.max(0, waitUntil - System.nanoTime())))
                : find.get();
        // Decided before writing: a written answer is an empty Mono too, and must not
        // trigger a fetch.
        return landed.map(Optional::of).defaultIfEmpty(Optional.empty()).flatMap(item -> {
            if (item.isEmpty()) {
                if (lead.followsAStore() && System.nanoTime() < waitUntil) {
                    // Gone since it was stored: the lock is claimed past its word, so
                    // that the replicas that miss now ask the backend once between
                    // them.
                    return replicas.claimPastStored(key)
                        .flatMap(again -> lead(exchange, chain, key, outcome, lead.with(again), fence, false,
                                waitUntil));
                }
                if (!lead.waitsForAnotherReplica()) {
                    return backend.fetch(exchange, chain, key, outcome, lead, fence);
                }
                outcome.collapseFailed();
                return System.nanoTime() < waitUntil ? replicas.claim(key)
                    .flatMap(again -> lead(exchange, chain, key, outcome, lead.with(again), fence, recheck, waitUntil))
                        : backend.fetch(exchange, chain, key, outcome, lead, fence);
            }
            // Another replica stored it already.
            Optional<DecodedItem> stored = format.decode(item.get());
            if (stored.isEmpty()) {
                return backend.fetch(exchange, chain, key, outcome, lead, fence);
            }
            CapturedResponse answer = format
                .answer(stored.get(), item.get().flags(), MetaItem.TTL_UNKNOWN, System.currentTimeMillis())
                .response();
            // Its Age was counted as it was read: it ages from now.
            lead.share(Variants.tagged(answer, stored.get().stored().headers()), System.currentTimeMillis());
            lead.stored();
            if (!format.canAnswer(exchange.getRequest().getHeaders(), stored.get().stored())) {
                outcome.varyMiss();
                return chain.filter(exchange);
            }
            outcome.coalesced();
            return CapturedResponseWriter.write(exchange, answer);
        });
    }

}
