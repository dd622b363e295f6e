package dev.cachegateway.gateway.cache.early;

import dev.cachegateway.gateway.cache.early.EarlyRoutes.Match;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.WeightCalculatorWebFilter;
import org.springframework.context.ApplicationContext;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Answers the hits of cached routes before the gateway routes them. Routing, the
 * gateway's filter chain and its observations cost a hit more than the lookup itself, and
 * a hit needs none of them. {@link EarlyRoutes} says which route the gateway would pick,
 * and whether its hits may be answered here. Anything but a hit goes on through the route
 * as before, with the lookup handed to the route's filter; so does a request that
 * {@link FastHitHandler} already looked up.
 */
public final class EarlyHitFilter implements WebFilter, Ordered {

    /** After the filter that computes the weights the Weight predicate reads. */
    public static final int ORDER = WeightCalculatorWebFilter.WEIGHT_CALC_FILTER_ORDER + 1;

    private final EarlyRoutes routes;

    private final ApplicationContext context;

    private final HandedOverLookups handedOver;

    public EarlyHitFilter(EarlyRoutes routes, ApplicationContext context, HandedOverLookups handedOver) {
        this.routes = routes;
        this.context = context;
        this.handedOver = handedOver;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        // The gateway routes nothing on the management port, which shares this filter
        // when it runs apart.
        if (exchange.getApplicationContext() != context || handedOver.carryInto(exchange)) {
            return chain.filter(exchange);
        }
        @Nullable Match matched = routes.match(exchange);
        return matched != null ? matched.cache().answerEarly(exchange, chain, matched.routeId())
                : chain.filter(exchange);
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
        return "EarlyHitFilter";
    }

}
