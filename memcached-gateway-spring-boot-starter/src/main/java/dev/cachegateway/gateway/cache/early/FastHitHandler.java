package dev.cachegateway.gateway.cache.early;

import java.util.function.BiFunction;

import dev.cachegateway.gateway.cache.EarlyLookup;
import dev.cachegateway.gateway.cache.early.EarlyRoutes.Match;
import dev.cachegateway.gateway.overload.AdmissionLimitFilter;
import dev.cachegateway.gateway.server.Http10KeepAliveFilter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers the fresh hits of cached routes below Spring's WebHandler, where the exchange,
 * the WebFilter chain, error handling and the server observation would cost a hit more
 * than its lookup. It asks what {@link EarlyHitFilter} asks, the same way: the route the
 * gateway would pick ({@link EarlyRoutes}), its cache filter's lookup, the same answer
 * writer; and it does for the hit what the WebFilters that matter to one do: the Weight
 * predicate's weights, the admission limit, HTTP/1.0 keep-alive, and the
 * {@code http.server.requests} timer ({@link ServerRequestTimers}). Anything else goes to
 * the handler it wraps, exactly as without it, with the lookup already made handed over
 * ({@link HandedOverLookups}). Any other WebFilter, such as a security filter, never sees
 * a fresh hit, which is why this is opt-in. Where the application traces with head
 * sampling, a request is decided first, and a traced one gets its server span before its
 * lookup ({@link TracedHits}); it is then answered or handed on as any other.
 */
final class FastHitHandler implements HttpHandler {

    private final HttpHandler delegate;

    private final BiFunction<ServerHttpRequest, ServerHttpResponse, ServerWebExchange> exchanges;

    private final EarlyRoutes routes;

    private final HandedOverLookups handedOver;

    private final FastHitDoors doors;

    private final @Nullable ServerRequestTimers timers;

    private final @Nullable TracedHits traced;

    FastHitHandler(HttpHandler delegate, BiFunction<ServerHttpRequest, ServerHttpResponse, ServerWebExchange> exchanges,
            EarlyRoutes routes, HandedOverLookups handedOver, FastHitDoors doors, @Nullable ServerRequestTimers timers,
            @Nullable TracedHits traced) {
        this.delegate = delegate;
        this.exchanges = exchanges;
        this.routes = routes;
        this.handedOver = handedOver;
        this.doors = doors;
        this.timers = timers;
        this.traced = traced;
    }

    @Override
    public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        HttpMethod method = request.getMethod();
        // Only these are looked up; a write goes through its route's invalidation.
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return delegate.handle(request, response);
        }
        TracedHits tracing = traced;
        if (tracing == null) {
            return answer(request, response, delegate, timers);
        }
        return tracing.handle(request, response, delegate, this::answer);
    }

    // onward: Spring's handler, for what is not answered here; timed: what times an
    // answered hit, where it has no server observation.
    private Mono<Void> answer(ServerHttpRequest request, ServerHttpResponse response, HttpHandler onward,
            @Nullable ServerRequestTimers timed) {
        @Nullable AdmissionLimitFilter door = doors.admission();
        if (door != null && !door.tryHold(request)) {
            return onward.handle(request, response);
        }
        AdmissionPermit permit = door != null ? new AdmissionPermit(door) : AdmissionPermit.NONE;
        long startedAt = System.nanoTime();
        ServerWebExchange exchange = exchanges.apply(request, response);
        doors.weigh(exchange);
        @Nullable Match matched = routes.match(exchange);
        if (matched == null) {
            permit.release();
            return onward.handle(request, response);
        }
        if (doors.keepAlive()) {
            // Before the cache's own commit action, as the WebFilter that does this runs
            // first; on a handed-over request that filter sets the same header again.
            Http10KeepAliveFilter.markKeepAlive(request, response);
        }
        return matched.cache()
            .answerFresh(exchange, matched.routeId(), answer -> answered(request, response, answer, timed, startedAt),
                    early -> handOver(request, response, early, permit, onward))
            .doFinally(signal -> permit.release());
    }

    private Mono<Void> answered(ServerHttpRequest request, ServerHttpResponse response, Mono<Void> answer,
            @Nullable ServerRequestTimers timed, long startedAt) {
        return HitEnding.of(request, response, answer, () -> {
            if (timed != null) {
                timed.record(request, response, startedAt);
            }
        });
    }

    private Mono<Void> handOver(ServerHttpRequest request, ServerHttpResponse response, @Nullable EarlyLookup early,
            AdmissionPermit permit, HttpHandler onward) {
        // The request passes the admission limit's WebFilter next, which holds a permit
        // of its own.
        permit.release();
        if (early == null) {
            return onward.handle(request, response);
        }
        handedOver.hold(request, early);
        return onward.handle(request, response).doFinally(signal -> handedOver.release(request));
    }

}
