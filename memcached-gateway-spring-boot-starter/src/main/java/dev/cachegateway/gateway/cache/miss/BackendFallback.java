package dev.cachegateway.gateway.cache.miss;

import java.util.Optional;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.trace.CacheSpans;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.cache.policy.StorePolicy;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.revalidate.RevalidatedResponse;
import dev.cachegateway.gateway.cache.revalidate.Revalidation;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.tag.TagHeadersFilter;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * nginx's {@code @fallback} for a miss: sends the request on to the route's backend, and
 * stores the answer when HTTP allows, telling the requests that wait for it what became
 * of it.
 */
public final class BackendFallback {

    /**
     * What a fetch tells the requests waiting for it, and the replicas through the key's
     * lock: a leading miss, a background refresh, or a request that goes to the backend
     * alone ({@link LoneFetch}).
     */
    public interface Waiters {

        /**
         * The answer, now on its way into memcached; the backend was asked for it at
         * {@code askedAt} (System.currentTimeMillis()).
         */
        default void share(CapturedResponse answer, long askedAt) {
        }

        /** The shared answer is in memcached. */
        default void stored() {
        }

        /**
         * The answer is about to be stored: said before the store's last check for a
         * write ({@link WriteFences}), so that a write waits for the store
         * ({@link ReplicaLocks#storing}). False if it must not be stored.
         */
        default Mono<Boolean> storing() {
            return Mono.just(true);
        }

        /**
         * The shared answer will not get to memcached: a write came after the backend was
         * asked, another replica stores the key, or memcached did not take it.
         */
        default void dropped() {
            stored();
        }

        /** Nothing to share; safe to call more than once, and after the others. */
        default void release() {
        }

    }

    private final boolean storing;

    private final StorePolicy policy;

    private final ItemFormat format;

    private final FencedStore store;

    private final WriteFences fences;

    private final CacheMetrics metrics;

    private final CacheSpans spans;

    public BackendFallback(boolean storing, StorePolicy policy, ItemFormat format, ReactiveMemcached memcached,
            ResponseStore store, WriteFences fences, NearCache near, TagGenerations tags, CacheMetrics metrics,
            CacheSpans spans) {
        this.storing = storing;
        this.policy = policy;
        this.format = format;
        this.store = new FencedStore(format, store, fences, memcached, near, tags, metrics);
        this.fences = fences;
        this.metrics = metrics;
        this.spans = spans;
    }

    /** Whether a miss for this request may be stored: a GET on a route that stores. */
    public boolean stores(ServerHttpRequest request) {
        return storing && HttpMethod.GET.equals(request.getMethod());
    }

    /**
     * The backend's answer to a miss that is not stored: a HEAD, or any miss on a route
     * that only looks up.
     */
    public Mono<Void> pass(ServerWebExchange exchange, GatewayFilterChain chain, CacheOutcome outcome) {
        Skip reason = storing ? Skip.METHOD : Skip.STORE_OFF;
        outcome.notStored(reason);
        metrics.skipped(reason);
        return chain.filter(exchange);
    }

    /**
     * The backend's answer to a miss, stored if it may be. A stale answer that the lookup
     * asked to revalidate ({@link Revalidation}) makes the request conditional, and a 304
     * to it refreshes that answer.
     */
    public Mono<Void> fetch(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Waiters waiters) {
        return fences.take(key).flatMap(fence -> fetch(exchange, chain, key, outcome, waiters, fence));
    }

    /** The same, for a fetch that took its fence already, before the backend is asked. */
    Mono<Void> fetch(ServerWebExchange exchange, GatewayFilterChain chain, String key, CacheOutcome outcome,
            Waiters waiters, Fence fence) {
        HttpHeaders requestHeaders = exchange.getRequest().getHeaders();
        long askedAt = System.currentTimeMillis();
        ServerHttpResponse response = new StoringResponse(exchange.getResponse(), exchange.getRequest().getMethod(),
                policy, outcome, new StoringResponse.Capture() {

                    @Override
                    public void captured(CapturedResponse answer, StoreDecision decision) {
                        CapturedResponse captured = format.capture(answer, requestHeaders);
                        // Shared first: a store that fails at once ends the lead, and
                        // must find the answer given.
                        waiters.share(captured, askedAt);
                        store.store(key, captured, decision, fence, waiters, askedAt, TagHeadersFilter.tagsOf(exchange),
                                spans.start(exchange, CacheSpans.STORE, key));
                    }

                    @Override
                    public void skipped(Skip reason) {
                        metrics.skipped(reason);
                        waiters.release();
                    }
                });
        ServerHttpRequest request = exchange.getRequest();
        Optional<CapturedResponse> stale = Revalidation.of(exchange);
        if (stale.isPresent()) {
            request = Revalidation.conditional(request, stale.get());
            // A 304 names no tags: the answer it keeps is stored again under its own.
            TagHeadersFilter.carry(exchange, ItemTags.of(stale.get().headers().getFirst(ItemTags.HEADER)).names());
            response = new RevalidatedResponse(response, stale.get(), outcome);
        }
        return chain.filter(exchange.mutate().request(request).response(response).build())
            .doFinally(signal -> waiters.release());
    }

}
