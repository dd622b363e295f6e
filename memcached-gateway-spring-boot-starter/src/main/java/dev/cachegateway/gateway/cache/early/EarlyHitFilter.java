package dev.cachegateway.gateway.cache.early;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.WeightCalculatorWebFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ApplicationListener;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Answers the hits of cached routes before the gateway routes them. Routing, the
 * gateway's filter chain and its observations cost a hit more than the lookup itself, and
 * a hit needs none of them. The routes stay the one source of truth: this filter takes
 * them from the {@link RouteLocator} and tries their own predicates in their order, and
 * steps in only where the first route that matches has the cache filter as its only
 * filter, so that nothing a route does is skipped. Anything but a hit goes on through the
 * route as before, with the lookup handed to the route's filter. A predicate that cannot
 * say at once ({@link SyncPredicates}) leaves the request to the gateway.
 */
public final class EarlyHitFilter implements WebFilter, Ordered, ApplicationListener<RefreshRoutesResultEvent> {

    /** After the filter that computes the weights the Weight predicate reads. */
    public static final int ORDER = WeightCalculatorWebFilter.WEIGHT_CALC_FILTER_ORDER + 1;

    private final RouteLocator routeLocator;

    private final ApplicationContext context;

    private final EarlyHitReport report = new EarlyHitReport();

    /**
     * Every route in order, with its cache filter where this filter may answer for it;
     * empty until routes load.
     */
    private volatile List<Candidate> candidates = List.of();

    public EarlyHitFilter(RouteLocator routeLocator, ApplicationContext context) {
        this.routeLocator = routeLocator;
        this.context = context;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        // The gateway routes nothing on the management port, which shares this filter
        // when it runs apart.
        @Nullable Candidate matched = exchange.getApplicationContext() == context ? match(exchange) : null;
        if (matched == null) {
            return chain.filter(exchange);
        }
        @Nullable MemcachedCacheFilter cache = matched.cache();
        return cache != null ? cache.answerEarly(exchange, chain, matched.routeId()) : chain.filter(exchange);
    }

    /**
     * The route the gateway would pick, if it is one this filter answers for; else null.
     */
    private @Nullable Candidate match(ServerWebExchange exchange) {
        for (Candidate candidate : candidates) {
            if (candidate.test().isEmpty()) {
                return null;
            }
            try {
                if (candidate.test().get().test(exchange)) {
                    return candidate;
                }
            }
            catch (RuntimeException ex) {
                // The gateway skips a route whose predicate fails, and says so itself.
                return null;
            }
        }
        return null;
    }

    @Override
    public void onApplicationEvent(RefreshRoutesResultEvent event) {
        routeLocator.getRoutes().collectList().subscribe(routes -> {
            candidates = candidates(routes);
            report.report(routes, candidates.stream().map(Candidate::test).toList());
        });
    }

    private static List<Candidate> candidates(List<Route> routes) {
        List<Candidate> candidates = new ArrayList<>(routes.size());
        for (Route route : routes) {
            candidates.add(new Candidate(route.getId(), SyncPredicates.of(route.getPredicate()),
                    onlyCacheFilter(route.getFilters())));
        }
        return List.copyOf(candidates);
    }

    private static @Nullable MemcachedCacheFilter onlyCacheFilter(List<GatewayFilter> filters) {
        if (filters.size() != 1) {
            return null;
        }
        return MemcachedCacheFilter.of(filters.get(0));
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    /**
     * A route's predicate as a plain test (none if it has none), and its cache filter if
     * this filter may answer.
     */
    private record Candidate(String routeId, Optional<Predicate<ServerWebExchange>> test,
            @Nullable MemcachedCacheFilter cache) {
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
