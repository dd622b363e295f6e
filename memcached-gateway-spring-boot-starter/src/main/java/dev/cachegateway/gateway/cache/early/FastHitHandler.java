package dev.cachegateway.gateway.cache.early;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiFunction;

import dev.cachegateway.gateway.cache.EarlyLookup;
import dev.cachegateway.gateway.cache.early.EarlyRoutes.Match;
import dev.cachegateway.gateway.overload.AdmissionLimitFilter;
import dev.cachegateway.gateway.server.Http10KeepAliveFilter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
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
 * sampling, a request is decided first ({@link TraceDecisions}): a traced one goes to the
 * handler it wraps, where its spans are made, and only the others are answered here.
 */
final class FastHitHandler implements HttpHandler {

    private final HttpHandler delegate;

    private final BiFunction<ServerHttpRequest, ServerHttpResponse, ServerWebExchange> exchanges;

    private final EarlyRoutes routes;

    private final HandedOverLookups handedOver;

    private final FastHitDoors doors;

    private final @Nullable ServerRequestTimers timers;

    private final @Nullable TraceDecisions traces;

    FastHitHandler(HttpHandler delegate, BiFunction<ServerHttpRequest, ServerHttpResponse, ServerWebExchange> exchanges,
            EarlyRoutes routes, HandedOverLookups handedOver, FastHitDoors doors, @Nullable ServerRequestTimers timers,
            @Nullable TraceDecisions traces) {
        this.delegate = delegate;
        this.exchanges = exchanges;
        this.routes = routes;
        this.handedOver = handedOver;
        this.doors = doors;
        this.timers = timers;
        this.traces = traces;
    }

    @Override
    public Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response) {
        HttpMethod method = request.getMethod();
        // Only these are looked up; a write goes through its route's invalidation.
        if (!HttpMethod.GET.equals(method) && !HttpMethod.HEAD.equals(method)) {
            return delegate.handle(request, response);
        }
        TraceDecisions decisions = traces;
        if (decisions == null) {
            return answer(request, response, delegate);
        }
        // Decided before the lookup, so that a traced request's lookup is in its trace;
        // kept only for a request that Spring's handler observes.
        TraceDecisions.Decision decided = decisions.decide(request);
        if (decided.traced()) {
            return decisions.keeping(request, decided, () -> delegate.handle(request, response));
        }
        return answer(request, response, (onwardRequest, onwardResponse) -> decisions.keeping(onwardRequest, decided,
                () -> delegate.handle(onwardRequest, onwardResponse)));
    }

    // onward: Spring's handler, for what is not answered here.
    private Mono<Void> answer(ServerHttpRequest request, ServerHttpResponse response, HttpHandler onward) {
        @Nullable AdmissionLimitFilter door = doors.admission();
        if (door != null && !door.tryHold(request)) {
            return onward.handle(request, response);
        }
        Permit permit = door != null ? new Permit(door) : Permit.NONE;
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
            .answerFresh(exchange, matched.routeId(), answer -> answered(request, response, answer, startedAt),
                    early -> handOver(request, response, early, permit, onward))
            .doFinally(signal -> permit.release());
    }

    // As Spring's HttpWebHandlerAdapter ends a request: timed once answered, a failure
    // turned into a 500 while nothing is sent, and the response completed.
    private Mono<Void> answered(ServerHttpRequest request, ServerHttpResponse response, Mono<Void> answer,
            long startedAt) {
        return answer.doOnSuccess(done -> {
            if (timers != null) {
                timers.record(request, response, startedAt);
            }
        })
            .onErrorResume(
                    ex -> response.setStatusCode(HttpStatus.INTERNAL_SERVER_ERROR) ? Mono.empty() : Mono.error(ex))
            .then(Mono.defer(response::setComplete));
    }

    private Mono<Void> handOver(ServerHttpRequest request, ServerHttpResponse response, @Nullable EarlyLookup early,
            Permit permit, HttpHandler onward) {
        // The request passes the admission limit's WebFilter next, which holds a permit
        // of its own.
        permit.release();
        if (early == null) {
            return onward.handle(request, response);
        }
        handedOver.hold(request, early);
        return onward.handle(request, response).doFinally(signal -> handedOver.release(request));
    }

    /**
     * The admission limit's permit for one request, given back once: on hand-over, or
     * when the answer ends, or is cancelled while the lookup is still out.
     */
    private static final class Permit extends AtomicBoolean {

        static final Permit NONE = new Permit(null);

        private final @Nullable AdmissionLimitFilter door;

        Permit(@Nullable AdmissionLimitFilter door) {
            this.door = door;
        }

        void release() {
            if (door != null && compareAndSet(false, true)) {
                door.release();
            }
        }

    }

}
