package dev.cachegateway.gateway.cache.early;

import java.util.function.Function;

import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

import org.springframework.context.ApplicationContext;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.observation.ServerRequestObservationConvention;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebHandler;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * The server observations of the traced requests that {@link FastHitHandler} takes, each
 * made as Spring's {@link HttpWebHandlerAdapter} makes it ({@link TracedRequest}):
 * started before the lookup, so that the lookup is its child, or, for a request whose
 * server span was started before its lookup ({@link TracedHits}), as it is handed on,
 * taking that span and the time of its arrival on. A request that is not a fresh hit goes
 * on to Spring's WebHandler through an adapter of its own that observes nothing, with the
 * request's observation in the place of the one Spring's would make: in the Reactor
 * context, where the cache's spans and the backend call's find their parent, and on the
 * exchange.
 */
final class TracedRequests {

    private final ObservationRegistry registry;

    private final @Nullable ServerRequestObservationConvention convention;

    private final HttpWebHandlerAdapter unobserved;

    TracedRequests(HttpWebHandlerAdapter adapter) {
        this.registry = adapter.getObservationRegistry();
        this.convention = adapter.getObservationConvention();
        WebHandler handler = adapter.getDelegate();
        // Its registry is Micrometer's no-op one, the default.
        this.unobserved = new HttpWebHandlerAdapter(
                exchange -> Mono.deferContextual(context -> observed(handler, exchange, context)));
        this.unobserved.setSessionManager(adapter.getSessionManager());
        this.unobserved.setCodecConfigurer(adapter.getCodecConfigurer());
        this.unobserved.setLocaleContextResolver(adapter.getLocaleContextResolver());
        @Nullable Boolean htmlEscape = adapter.getDefaultHtmlEscape();
        if (htmlEscape != null) {
            this.unobserved.setDefaultHtmlEscape(htmlEscape);
        }
        @Nullable ApplicationContext context = adapter.getApplicationContext();
        if (context != null) {
            this.unobserved.setApplicationContext(context);
        }
        this.unobserved.afterPropertiesSet();
    }

    /**
     * {@code handling} observed from now, given the handler to pass the request on to if
     * it does not answer it itself.
     */
    Mono<Void> observe(ServerHttpRequest request, ServerHttpResponse response,
            Function<HttpHandler, Mono<Void>> handling) {
        return observe(request, response, null, handling);
    }

    /**
     * {@code handling} observed from now, for a request that arrived with its server span
     * and timer sample {@code arrival}, if not null.
     */
    Mono<Void> observe(ServerHttpRequest request, ServerHttpResponse response, @Nullable Arrival arrival,
            Function<HttpHandler, Mono<Void>> handling) {
        TracedRequest traced = new TracedRequest(request, response, registry, convention, arrival);
        // Deferred, so that a handling that throws as it is put together ends the
        // observation it started with its error, rather than leaving it running.
        return Mono.defer(() -> handling.apply(unobserved))
            .doOnSuccess(done -> traced.complete())
            .doOnError(traced::fail)
            .doOnCancel(traced::cancel)
            .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, traced.observation())
                .put(TracedRequest.class, traced));
    }

    // Spring's adapter puts its own (no-op) observation in the Reactor context; this puts
    // the request's back, for all that runs below it.
    private static Mono<Void> observed(WebHandler handler, ServerWebExchange exchange, ContextView context) {
        @Nullable TracedRequest traced = context.getOrDefault(TracedRequest.class, null);
        if (traced == null) {
            return handler.handle(exchange);
        }
        traced.handedOn(exchange);
        return handler.handle(exchange)
            .doOnError(traced::unresolved)
            .contextWrite(inner -> inner.put(ObservationThreadLocalAccessor.KEY, traced.observation()));
    }

}
