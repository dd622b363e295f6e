package dev.cachegateway.gateway.cache.early;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cachegateway.gateway.cache.EarlyLookup;
import org.jspecify.annotations.Nullable;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * The lookups {@link FastHitHandler} made for requests that were not fresh hits, until
 * {@link EarlyHitFilter} takes each into the exchange Spring builds for the request. A
 * handler below Spring's WebHandler has no exchange whose attributes could carry them,
 * but Spring's exchange holds the very request object the handler was given, so the
 * request is the key.
 */
public final class HandedOverLookups {

    private final Map<ServerHttpRequest, EarlyLookup> lookups = new ConcurrentHashMap<>();

    void hold(ServerHttpRequest request, EarlyLookup lookup) {
        lookups.put(request, lookup);
    }

    /** The lookup held for the exchange's request, put into the exchange; else false. */
    boolean carryInto(ServerWebExchange exchange) {
        if (lookups.isEmpty()) {
            return false;
        }
        @Nullable EarlyLookup lookup = lookups.remove(exchange.getRequest());
        if (lookup == null) {
            return false;
        }
        lookup.carryInto(exchange);
        return true;
    }

    /**
     * Forgets the request's lookup if no exchange took it, such as for a request that
     * Spring refused before its filters.
     */
    void release(ServerHttpRequest request) {
        lookups.remove(request);
    }

}
