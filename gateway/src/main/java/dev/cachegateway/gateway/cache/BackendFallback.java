package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.Optional;

import dev.cachegateway.gateway.cache.InFlightRequests.Ticket;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * nginx's {@code @fallback}: sends a request on to the route's backend. On a miss it also stores the answer when
 * HTTP allows, and lets concurrent misses for the same key share one backend call.
 */
final class BackendFallback {

    private final boolean storing;

    private final StorePolicy policy;

    private final ResponseStore store;

    private final InFlightRequests inFlight;

    private final Duration lockTimeout;

    private final CacheMetrics metrics;

    BackendFallback(boolean storing, StorePolicy policy, ResponseStore store, InFlightRequests inFlight,
            Duration lockTimeout, CacheMetrics metrics) {
        this.storing = storing;
        this.policy = policy;
        this.store = store;
        this.inFlight = inFlight;
        this.lockTimeout = lockTimeout;
        this.metrics = metrics;
    }

    /** The backend's answer, neither stored nor shared, marked with {@code status}. */
    static Mono<Void> pass(ServerWebExchange exchange, GatewayFilterChain chain, CacheStatus status) {
        // Set when the answer is committed, so that it wins over any X-Cache the backend sends.
        exchange.getResponse().beforeCommit(() -> {
            exchange.getResponse().getHeaders().set(CacheStatus.HEADER, status.name());
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    /** The backend's answer to a miss, stored if it may be; a concurrent miss for {@code key} waits for it. */
    Mono<Void> miss(ServerWebExchange exchange, GatewayFilterChain chain, String key) {
        if (!storing || !HttpMethod.GET.equals(exchange.getRequest().getMethod())) {
            return pass(exchange, chain, CacheStatus.MISS);
        }
        Ticket ticket = inFlight.enter(key);
        if (ticket.leads()) {
            return fetch(exchange, chain, key, ticket).doFinally(signal -> ticket.release());
        }
        // Decided before writing: a written answer is an empty Mono too, and must not trigger a second fetch.
        return ticket.answer()
                .timeout(lockTimeout, Mono.empty())
                .map(Optional::of)
                .defaultIfEmpty(Optional.empty())
                .flatMap(shared -> {
                    if (shared.isEmpty() || !canTake(exchange.getRequest().getHeaders(), shared.get())) {
                        return fetch(exchange, chain, key, null);
                    }
                    metrics.coalesced();
                    return writeShared(exchange.getResponse(), shared.get());
                });
    }

    private Mono<Void> fetch(ServerWebExchange exchange, GatewayFilterChain chain, String key, Ticket ticket) {
        StoringResponse response = new StoringResponse(exchange.getResponse(), exchange.getRequest().getMethod(),
                policy, captured -> {
                    store.store(key, captured);
                    if (ticket != null) {
                        ticket.share(captured);
                    }
                }, skipped -> {
                    metrics.skipped(skipped);
                    if (ticket != null) {
                        ticket.release();
                    }
                });
        return chain.filter(exchange.mutate().response(response).build());
    }

    // The leader's answer may be gzip for a client that takes it; one that does not asks the backend itself.
    private static boolean canTake(HttpHeaders requestHeaders, CapturedResponse shared) {
        return !"gzip".equalsIgnoreCase(shared.headers().getFirst(HttpHeaders.CONTENT_ENCODING))
                || CachedResponseWriter.acceptsGzip(requestHeaders);
    }

    private static Mono<Void> writeShared(ServerHttpResponse response, CapturedResponse shared) {
        response.setStatusCode(shared.status());
        HttpHeaders headers = response.getHeaders();
        headers.putAll(shared.headers());
        headers.setContentLength(shared.body().length);
        headers.set(CacheStatus.HEADER, CacheStatus.COALESCED.name());
        return response.writeWith(Mono.just(response.bufferFactory().wrap(shared.body())));
    }
}
