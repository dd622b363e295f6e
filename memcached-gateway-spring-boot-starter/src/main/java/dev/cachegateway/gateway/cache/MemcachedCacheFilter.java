package dev.cachegateway.gateway.cache;

import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.hit.Lookup;
import dev.cachegateway.gateway.cache.invalidate.WriteInvalidation;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Bypass;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import dev.cachegateway.gateway.cache.trace.CacheSpans;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

/**
 * nginx's {@code memcached_pass} with {@code error_page 404 502 = @fallback}: looks the
 * request up in memcached, answers a hit itself, and passes a miss or a memcached failure
 * on to the route's backend.
 */
public final class MemcachedCacheFilter implements GatewayFilter, Ordered {

    /**
     * Before the filter that writes the backend's answer, so that this one sees that
     * answer go by.
     */
    public static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

    private final ItemLookup items;

    private final List<String> bypassHeaders;

    private final CacheMetrics metrics;

    private final CacheSpans spans;

    private final CachedRoute route;

    private final WriteInvalidation invalidation;

    private final LookupResponder responder;

    /**
     * @param items the lookup every route shares
     * @param bypassHeaders the request headers that make a request pass the cache
     * untouched
     * @param metrics the meters every route shares
     * @param route this route's parts
     * @param invalidation what a successful write deletes
     */
    MemcachedCacheFilter(ItemLookup items, List<String> bypassHeaders, CacheMetrics metrics, CacheSpans spans,
            CachedRoute route, WriteInvalidation invalidation) {
        this.items = items;
        this.bypassHeaders = List.copyOf(bypassHeaders);
        this.metrics = metrics;
        this.spans = spans;
        this.route = route;
        this.invalidation = invalidation;
        this.responder = new LookupResponder(route);
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        CacheOutcome outcome = CacheOutcome.of(exchange.getResponse(), metrics.lookups(routeId(exchange)));
        ServerHttpRequest request = exchange.getRequest();
        Optional<Bypass> bypass = bypassReason(request);
        Optional<String> rendered = bypass.isEmpty() ? key(request) : Optional.empty();
        if (rendered.isEmpty()) {
            Bypass reason = bypass.orElse(Bypass.KEY);
            metrics.bypass(reason);
            outcome.bypass(reason);
            if (reason == Bypass.METHOD && WriteInvalidation.invalidates(request.getMethod())) {
                invalidation.onSuccess(exchange, route.keys());
            }
            return chain.filter(exchange);
        }
        String key = rendered.get();
        Supplier<Mono<Void>> lookUp = () -> {
            long startedAt = System.nanoTime();
            return lookUp(exchange, key)
                .flatMap(lookup -> responder.respond(exchange, chain, key, outcome, lookup, startedAt));
        };
        return spans.around(exchange, answer(exchange, chain, key, outcome, lookUp));
    }

    private Mono<Void> answer(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Supplier<Mono<Void>> lookUp) {
        return route.misses().joinInFlight(exchange, chain, key, outcome, lookUp).orElseGet(() -> {
            EarlyLookup early = exchange.getAttribute(EarlyLookup.ATTRIBUTE);
            if (early != null && early.filter() == this && early.key().equals(key)) {
                return responder.respond(exchange, chain, key, outcome, early.lookup(), early.startedAt());
            }
            // Hit or miss is decided before anything is written: a write is an empty
            // Mono, so chaining the fallback on emptiness would send every hit to the
            // backend as well.
            return lookUp.get();
        });
    }

    /**
     * Before routing, for a request that this filter's route is the first to match:
     * answers a fresh hit here, and notes anything else for {@link #filter}, so that the
     * route goes on without a second lookup.
     */
    public Mono<Void> answerEarly(ServerWebExchange exchange, WebFilterChain chain, String routeId) {
        return answerFresh(exchange, routeId, UnaryOperator.identity(), early -> {
            if (early != null) {
                early.carryInto(exchange);
            }
            return chain.filter(exchange);
        });
    }

    /**
     * Answers a fresh hit, its answer passed through {@code answered}, and gives anything
     * else to {@code otherwise}, with the lookup if one was made: a bypass, and a key
     * with a miss in flight, are the route's to answer, as ever, and a stale item, or one
     * to refresh, needs the route's backend.
     */
    public Mono<Void> answerFresh(ServerWebExchange exchange, String routeId, UnaryOperator<Mono<Void>> answered,
            Function<@Nullable EarlyLookup, Mono<Void>> otherwise) {
        ServerHttpRequest request = exchange.getRequest();
        Optional<String> rendered = bypassReason(request).isEmpty() ? key(request) : Optional.empty();
        if (rendered.isEmpty() || route.misses().inFlight(rendered.get())) {
            return otherwise.apply(null);
        }
        String key = rendered.get();
        long startedAt = System.nanoTime();
        return spans.around(exchange, lookUp(exchange, key).flatMap(lookup -> {
            if (lookup instanceof Lookup.Hit hit && hit.age().fresh() && !hit.wonRefresh()) {
                // Said as the answer's headers are set: nothing is left to run at its
                // commit.
                return answered.apply(CapturedResponseWriter.write(exchange.getRequest(), exchange.getResponse(),
                        hit.response(), response -> CacheOutcome.sayHit(response, metrics.lookups(routeId))));
            }
            return otherwise.apply(new EarlyLookup(this, key, lookup, startedAt));
        }));
    }

    private Mono<Lookup> lookUp(ServerWebExchange exchange, String key) {
        return spans.observe(exchange, CacheSpans.LOOKUP, key,
                items.lookUp(key, exchange.getRequest().getHeaders(), route.format(), route.refreshAhead()),
                Lookup::result);
    }

    /**
     * {@code filter} as a cache filter, if it is one: a route holds each filter wrapped
     * with its order.
     */
    public static @Nullable MemcachedCacheFilter of(GatewayFilter filter) {
        GatewayFilter plain = filter instanceof OrderedGatewayFilter ordered ? ordered.getDelegate() : filter;
        return plain instanceof MemcachedCacheFilter cache ? cache : null;
    }

    private static String routeId(ServerWebExchange exchange) {
        Route matched = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        // Set by the gateway before any route filter runs; absent only when a filter is
        // run by hand.
        return matched != null ? matched.getId() : "none";
    }

    private Optional<String> key(ServerHttpRequest request) {
        return route.keys().render(request.getURI().getRawPath(), request.getURI().getRawQuery(), request.getHeaders());
    }

    private Optional<Bypass> bypassReason(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return Optional.of(Bypass.METHOD);
        }
        HttpHeaders headers = request.getHeaders();
        for (String header : bypassHeaders) {
            if (headers.containsHeader(header)) {
                return Optional.of(Bypass.HEADER);
            }
        }
        return Optional.empty();
    }

    /** Whether this route stores its answers with the tags the backend names. */
    public boolean takesTags() {
        return route.tags() && route.format().storesTags();
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return route.settings();
    }

}
