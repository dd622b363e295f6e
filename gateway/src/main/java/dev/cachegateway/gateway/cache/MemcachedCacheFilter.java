package dev.cachegateway.gateway.cache;

import java.util.List;

import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.hit.Lookup;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.miss.MissCoalescing;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Bypass;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilterChain;

/**
 * nginx's {@code memcached_pass} with {@code error_page 404 502 = @fallback}: looks the request up in memcached,
 * answers a hit itself, and passes a miss or a memcached failure on to the route's backend.
 */
public final class MemcachedCacheFilter implements GatewayFilter, Ordered {

    /** Before the filter that writes the backend's answer, so that this one sees that answer go by. */
    public static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

    private final ItemLookup items;

    private final CacheKeyTemplate keys;

    private final List<String> bypassHeaders;

    private final BodyFormat hits;

    private final MissCoalescing misses;

    private final CacheMetrics metrics;

    private final String settings;

    public MemcachedCacheFilter(ItemLookup items, CacheKeyTemplate keys, List<String> bypassHeaders,
            BodyFormat hits, MissCoalescing misses, CacheMetrics metrics, String settings) {
        this.items = items;
        this.keys = keys;
        this.bypassHeaders = List.copyOf(bypassHeaders);
        this.hits = hits;
        this.misses = misses;
        this.metrics = metrics;
        this.settings = settings;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        CacheOutcome outcome = CacheOutcome.of(exchange.getResponse(), metrics);
        ServerHttpRequest request = exchange.getRequest();
        Bypass bypass = bypassReason(request);
        String key = bypass == null ? key(request) : null;
        if (bypass != null || key == null) {
            bypass = bypass != null ? bypass : Bypass.KEY;
            metrics.bypass(bypass);
            outcome.bypass(bypass);
            return chain.filter(exchange);
        }
        Mono<Void> following = misses.joinInFlight(exchange, chain, key, outcome);
        if (following != null) {
            return following;
        }
        EarlyLookup early = exchange.getAttribute(EarlyLookup.ATTRIBUTE);
        if (early != null && early.filter() == this && early.key().equals(key)) {
            return answer(exchange, chain, key, outcome, early.lookup());
        }
        // Hit or miss is decided before anything is written: a write is an empty Mono, so chaining the
        // fallback on emptiness would send every hit to the backend as well.
        return items.lookUp(key, request.getHeaders(), hits)
                .flatMap(lookup -> answer(exchange, chain, key, outcome, lookup));
    }

    /**
     * Before routing, for a request that this filter's route is the first to match: answers a hit here, and notes
     * anything else for {@link #filter}, so that the route goes on without a second lookup.
     */
    public Mono<Void> answerEarly(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String key = bypassReason(request) == null ? key(request) : null;
        // A bypass, and a key with a miss in flight, are the route's to answer, as ever.
        if (key == null || misses.inFlight(key)) {
            return chain.filter(exchange);
        }
        return items.lookUp(key, request.getHeaders(), hits).flatMap(lookup -> {
            if (lookup.item() == null) {
                exchange.getAttributes().put(EarlyLookup.ATTRIBUTE, new EarlyLookup(this, key, lookup));
                return chain.filter(exchange);
            }
            CacheOutcome.of(exchange.getResponse(), metrics).hit();
            return CapturedResponseWriter.write(exchange, lookup.answer(hits));
        });
    }

    private Mono<Void> answer(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Lookup lookup) {
        if (lookup == Lookup.UNUSABLE) {
            outcome.varyMiss();
            return chain.filter(exchange);
        }
        if (lookup.item() != null) {
            outcome.hit();
            return CapturedResponseWriter.write(exchange, lookup.answer(hits));
        }
        if (lookup.failure() == null) {
            outcome.miss();
            return misses.miss(exchange, chain, key, outcome);
        }
        // memcached is failing: storing would only add to its load.
        outcome.error(lookup.failure());
        return chain.filter(exchange);
    }

    private String key(ServerHttpRequest request) {
        return keys.render(request.getURI().getRawPath(), request.getURI().getRawQuery(), request.getHeaders());
    }

    private Bypass bypassReason(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return Bypass.METHOD;
        }
        HttpHeaders headers = request.getHeaders();
        for (String header : bypassHeaders) {
            if (headers.containsHeader(header)) {
                return Bypass.HEADER;
            }
        }
        return null;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    @Override
    public String toString() {
        return settings;
    }

    /** A lookup made before routing, for the route filter that made it and the key it looked up. */
    public record EarlyLookup(MemcachedCacheFilter filter, String key, Lookup lookup) {

        static final String ATTRIBUTE = EarlyLookup.class.getName();
    }
}
