package dev.cachegateway.gateway.overload;

import java.time.Duration;

import dev.cachegateway.gateway.overload.Rejections.Limit;
import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import reactor.core.publisher.Mono;

import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * The door: at most {@code memcached.overload.max-concurrent-requests} requests at once,
 * and a fast 503 for any more. Past a point every request admitted makes all of them
 * slower, until none is answered in time; turning the excess away at once keeps the
 * others fast, and tells clients when to come back. Health and probes are never turned
 * away, so that an orchestrator never restarts a gateway for being busy.
 */
public final class AdmissionLimitFilter implements WebFilter, Ordered {

    /**
     * Before anything else the gateway does for a request, except marking HTTP/1.0
     * keep-alive on its answer.
     */
    static final int ORDER = Ordered.HIGHEST_PRECEDENCE + 1;

    private final Bulkhead requests;

    private final Rejections rejections;

    private final ApplicationContext context;

    AdmissionLimitFilter(int maxConcurrentRequests, Rejections rejections, ApplicationContext context) {
        this.requests = Bulkhead.of("gateway-requests",
                BulkheadConfig.custom()
                    .maxConcurrentCalls(maxConcurrentRequests)
                    // Never wait: a queue at the door is the overload itself.
                    .maxWaitDuration(Duration.ZERO)
                    .build());
        this.rejections = rejections;
        this.context = context;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        if (isExempt(exchange)) {
            return chain.filter(exchange);
        }
        if (!requests.tryAcquirePermission()) {
            return rejections.reject(exchange, Limit.REQUESTS);
        }
        return chain.filter(exchange).doFinally(signal -> requests.onComplete());
    }

    /**
     * For a request answered below Spring's WebHandler, where this filter does not run:
     * takes a permit for it, to be given back by {@link #release}. False, and no permit
     * held, where this filter would turn the request away, or let it by without one
     * (health and probes): such a request is this filter's to handle.
     */
    public boolean tryHold(ServerHttpRequest request) {
        return !isExempt(request.getURI().getRawPath()) && requests.tryAcquirePermission();
    }

    /** Gives back a permit that {@link #tryHold} took. */
    public void release() {
        requests.onComplete();
    }

    // The management port shares this filter when it runs apart, and is told by its own
    // application context.
    private boolean isExempt(ServerWebExchange exchange) {
        return exchange.getApplicationContext() != context || isExempt(exchange.getRequest().getURI().getRawPath());
    }

    // The URI's raw path, which a hit parses anyway for its key, is getPath()'s value
    // without splitting it into segments, which only this would ask for on a hit
    // answered below the WebHandler.
    private static boolean isExempt(String path) {
        return path.startsWith("/actuator/health") || path.equals("/livez") || path.equals("/readyz");
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    /**
     * Spring's filter chain names each filter in a checkpoint on every request, by this:
     * a constant spares each request building {@code Object}'s name and hash.
     */
    @Override
    public String toString() {
        return "AdmissionLimitFilter";
    }

}
