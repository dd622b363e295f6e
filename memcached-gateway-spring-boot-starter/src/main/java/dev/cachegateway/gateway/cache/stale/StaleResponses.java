package dev.cachegateway.gateway.cache.stale;

import java.util.function.Function;

import dev.cachegateway.gateway.cache.hit.Lookup;
import dev.cachegateway.gateway.cache.miss.BackendFallback;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.web.server.ServerWebExchange;

/**
 * A route's answers with items that are stale, or that memcached chose to refresh before
 * they are.
 */
public final class StaleResponses {

    private final BackgroundRefresh refresh;

    private final BackendFallback backend;

    public StaleResponses(BackgroundRefresh refresh, BackendFallback backend) {
        this.refresh = refresh;
        this.backend = backend;
    }

    /**
     * A fresh hit that memcached chose, of all lookups, to refresh now: answered, and
     * refreshed in the background.
     */
    public Mono<Void> hitRefreshedEarly(ServerWebExchange exchange, GatewayFilterChain chain, String key,
            Lookup.Hit hit, CacheOutcome outcome) {
        outcome.hit();
        refresh.refresh(exchange, chain, key, backend, true);
        return CapturedResponseWriter.write(exchange, hit.response());
    }

    /**
     * A stale item inside its stale-while-revalidate window: answered at once, and
     * refreshed in the background.
     */
    public Mono<Void> whileRevalidate(ServerWebExchange exchange, GatewayFilterChain chain, String key, Lookup.Hit hit,
            CacheOutcome outcome) {
        outcome.updating(hit.age().ttl().orElse(0));
        refresh.refresh(exchange, chain, key, backend, false);
        return CapturedResponseWriter.write(exchange, hit.response());
    }

    /**
     * A stale item inside its stale-if-error window only: the request goes to the backend
     * as a miss would, and the item answers if the backend fails to.
     */
    public Mono<Void> ifError(ServerWebExchange exchange, Lookup.Hit hit, CacheOutcome outcome,
            Function<ServerWebExchange, Mono<Void>> miss) {
        outcome.expired(hit.age().ttl().orElse(0));
        StaleIfErrorResponse response = new StaleIfErrorResponse(exchange.getRequest(), exchange.getResponse(),
                hit.response(), outcome);
        return miss.apply(exchange.mutate().response(response).build())
            .onErrorResume(failure -> response.isCommitted() ? Mono.error(failure) : response.answerStale(null));
    }

}
