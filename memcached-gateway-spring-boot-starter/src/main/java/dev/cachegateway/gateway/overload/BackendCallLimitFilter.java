package dev.cachegateway.gateway.overload;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cachegateway.gateway.overload.Rejections.Limit;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

/**
 * At most so many calls to a route's backend at once: the route's metadata
 * {@code max-concurrent-backend-calls}, or
 * {@code memcached.overload.max-concurrent-backend-calls}. Every call counts, whatever
 * sent it: a miss, a lookup that failed, a background refresh, a request the cache passes
 * through, a route without the cache. A cache in front of a backend must never turn its
 * own trouble into more load than the backend takes; a call past the limit fails at once
 * with a 503, which the cache answers with a stale item where it has one
 * (stale-if-error). Hits make no call, so they are never turned away here.
 */
final class BackendCallLimitFilter implements GlobalFilter, Ordered {

    /** The route metadata key of a route's own limit. */
    static final String METADATA_KEY = "max-concurrent-backend-calls";

    /**
     * Just before the call, after the cache has decided one is needed, and before any
     * retry of it.
     */
    static final int ORDER = NettyRoutingFilter.ORDER - 11;

    private final int defaultLimit;

    private final Rejections rejections;

    private final Map<String, RouteCalls> routes = new ConcurrentHashMap<>();

    BackendCallLimitFilter(int defaultLimit, Rejections rejections) {
        this.defaultLimit = defaultLimit;
        this.rejections = rejections;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route == null) {
            return chain.filter(exchange);
        }
        Bulkhead calls = callsOf(route);
        if (!calls.tryAcquirePermission()) {
            return rejections.reject(exchange, Limit.BACKEND_CALLS);
        }
        return chain.filter(exchange).doFinally(signal -> calls.onComplete());
    }

    // A route refreshed with another limit gets a new bulkhead; calls in flight release
    // the old one. Made under the map's lock: two first calls that each made their own
    // would each see the other's permit missing.
    private Bulkhead callsOf(Route route) {
        int limit = limitOf(route);
        RouteCalls calls = routes.get(route.getId());
        if (calls == null || calls.limit() != limit) {
            calls = routes.compute(route.getId(),
                    (id, made) -> made != null && made.limit() == limit ? made : new RouteCalls(limit, Bulkhead.of(
                            "backend-" + id,
                            BulkheadConfig.custom().maxConcurrentCalls(limit).maxWaitDuration(Duration.ZERO).build())));
        }
        return calls.bulkhead();
    }

    private int limitOf(Route route) {
        @Nullable Object configured = route.getMetadata().get(METADATA_KEY);
        if (configured == null) {
            return defaultLimit;
        }
        try {
            return Integer.parseInt(configured.toString().trim());
        }
        catch (NumberFormatException ex) {
            throw new IllegalStateException(
                    "route " + route.getId() + ": " + METADATA_KEY + " must be a whole number, not " + configured, ex);
        }
    }

    private record RouteCalls(int limit, Bulkhead bulkhead) {
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

}
