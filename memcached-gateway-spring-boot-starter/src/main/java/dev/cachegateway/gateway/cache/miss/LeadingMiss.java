package dev.cachegateway.gateway.cache.miss;

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
        return lead(exchange, chain, key, outcome, lead, fence, recheck, true);
    }

    // claimAgain: whether a replica that waited for another's item, and found none,
    // claims the lock once more before it asks the backend, so that the replicas that
    // waited with it wait for it rather than all asking at once.
    private Mono<Void> lead(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Lead lead, Fence fence, boolean recheck, boolean claimAgain) {
        if (!lead.waitsForAnotherReplica() && !lead.followsAStore() && !recheck) {
            return backend.fetch(exchange, chain, key, outcome, lead, fence);
        }
        Supplier<Mono<CachedItem>> find = () -> answers.find(key, exchange.getRequest().getHeaders());
        Mono<CachedItem> landed = lead.waitsForAnotherReplica() ? replicas.awaitItem(key, find) : find.get();
        // Decided before writing: a written answer is an empty Mono too, and must not
        // trigger a fetch.
        return landed.map(Optional::of).defaultIfEmpty(Optional.empty()).flatMap(item -> {
            if (item.isEmpty()) {
                if (!lead.waitsForAnotherReplica()) {
                    return backend.fetch(exchange, chain, key, outcome, lead, fence);
                }
                outcome.collapseFailed();
                return claimAgain ? replicas.claim(key)
                    .flatMap(again -> lead(exchange, chain, key, outcome, lead.with(again), fence, recheck, false))
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
