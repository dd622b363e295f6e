package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.CacheMetrics.Bypass;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.NettyWriteResponseFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * nginx's {@code memcached_pass} with {@code error_page 404 502 = @fallback}: looks the request up in memcached,
 * answers a hit itself, and passes a miss or a memcached failure on to the route's backend.
 */
final class MemcachedCacheFilter implements GatewayFilter, Ordered {

    /** Before the filter that writes the backend's answer, so that this one sees that answer go by. */
    static final int ORDER = NettyWriteResponseFilter.WRITE_RESPONSE_FILTER_ORDER - 1;

    private static final BurstLog failures =
            new BurstLog(LoggerFactory.getLogger(MemcachedCacheFilter.class), Duration.ofSeconds(10));

    private final ReactiveMemcached memcached;

    private final CacheKeyTemplate keys;

    private final List<String> bypassHeaders;

    private final HitResponses hits;

    private final MissCoalescing misses;

    private final CacheMetrics metrics;

    private final String settings;

    MemcachedCacheFilter(ReactiveMemcached memcached, CacheKeyTemplate keys, List<String> bypassHeaders,
            HitResponses hits, MissCoalescing misses, CacheMetrics metrics, String settings) {
        this.memcached = memcached;
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
        String key = bypass == null
                ? keys.render(request.getURI().getRawPath(), request.getURI().getRawQuery(), request.getHeaders())
                : null;
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
        // Hit or miss is decided before anything is written: a write is an empty Mono, so chaining the
        // fallback on emptiness would send every hit to the backend as well.
        return memcached.get(key)
                // A gzip item a client cannot decode is as good as none; the backend's answer to that client is
                // not stored, since it would replace the item that gzip clients are served.
                .map(item -> hits.canAnswer(request.getHeaders(), item) ? Lookup.hit(item) : Lookup.UNUSABLE)
                .defaultIfEmpty(Lookup.MISS)
                .onErrorResume(failure -> {
                    // An open breaker is logged once, when it opens.
                    if (!MemcachedLimits.isCircuitOpen(failure)) {
                        failures.warn("memcached lookup failed, answering from the backend", failure);
                    }
                    return Mono.just(new Lookup(null, failure));
                })
                .flatMap(lookup -> {
                    if (lookup == Lookup.UNUSABLE) {
                        outcome.varyMiss();
                        return chain.filter(exchange);
                    }
                    if (lookup.item() != null) {
                        outcome.hit();
                        return CapturedResponseWriter.write(exchange, hits.of(lookup.item()));
                    }
                    if (lookup.failure() == null) {
                        outcome.miss();
                        return misses.miss(exchange, chain, key, outcome);
                    }
                    // memcached is failing: storing would only add to its load.
                    outcome.error(lookup.failure());
                    return chain.filter(exchange);
                });
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

    /** What memcached said: an item, nothing (a miss), or a failure. */
    private record Lookup(CachedItem item, Throwable failure) {

        static final Lookup MISS = new Lookup(null, null);

        /** An item this client cannot take; told apart from {@link #MISS} by identity. */
        static final Lookup UNUSABLE = new Lookup(null, null);

        static Lookup hit(CachedItem item) {
            return new Lookup(item, null);
        }
    }
}
