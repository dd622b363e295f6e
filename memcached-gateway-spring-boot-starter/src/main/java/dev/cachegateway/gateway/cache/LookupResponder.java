package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.hit.Lookup;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import dev.cachegateway.gateway.cache.revalidate.Revalidation;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * A route's answer to a request once memcached was looked up: a fresh hit from the item,
 * a stale one as its windows allow, a miss through the route's coalescing, and a failed
 * lookup from the backend alone.
 */
final class LookupResponder {

    private final CachedRoute route;

    LookupResponder(CachedRoute route) {
        this.route = route;
    }

    // startedAt: when the lookup was sent, so that a miss tells a lead that ended before
    // it from one that did not.
    Mono<Void> respond(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Lookup lookup, long startedAt) {
        if (lookup instanceof Lookup.Hit hit) {
            if (!hit.age().fresh()) {
                // A stale whole answer with a validator is revalidated by whichever
                // request asks the backend.
                Revalidation.ask(exchange, hit.stored());
            }
            return switch (hit.age().staleness()) {
                case FRESH -> hit.wonRefresh() ? route.stale().hitRefreshedEarly(exchange, chain, key, hit, outcome)
                        : hit(exchange, hit, outcome);
                case WHILE_REVALIDATE -> route.stale().whileRevalidate(exchange, chain, key, hit, outcome);
                case IF_ERROR -> route.stale()
                    .ifError(exchange, hit, outcome,
                            guarded -> route.misses().missAfterStale(guarded, chain, key, outcome));
                case EXPIRED -> {
                    outcome.expired(hit.age().ttl().orElse(0));
                    yield route.misses().missAfterStale(exchange, chain, key, outcome);
                }
            };
        }
        if (lookup instanceof Lookup.Failed failed) {
            // memcached is failing: storing would only add to its load.
            outcome.error(failed.failure());
            return chain.filter(exchange);
        }
        if (lookup == Lookup.UNUSABLE) {
            outcome.varyMiss();
            return chain.filter(exchange);
        }
        outcome.miss();
        return route.misses().miss(exchange, chain, key, outcome, startedAt);
    }

    private static Mono<Void> hit(ServerWebExchange exchange, Lookup.Hit hit, CacheOutcome outcome) {
        outcome.hit();
        return CapturedResponseWriter.write(exchange, hit.response());
    }

}
