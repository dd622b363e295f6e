package dev.cachegateway.gateway.cache.early;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;
import org.springframework.web.server.ServerWebExchange;

/**
 * The route the gateway would pick for a request, where it is one whose hits may be
 * answered before routing: the routes stay the one source of truth, taken from the
 * {@link RouteLocator} whenever they load, and their own predicates are tried in their
 * order. A route qualifies where it has the cache filter as its only filter, so that
 * nothing a route does is skipped. A predicate that cannot say at once
 * ({@link SyncPredicates}) leaves the request, and every route after it, to the gateway.
 * Shared by the early hit's WebFilter and the one below Spring's WebHandler.
 */
public final class EarlyRoutes implements ApplicationListener<RefreshRoutesResultEvent> {

    private final RouteLocator routeLocator;

    private final EarlyHitReport report = new EarlyHitReport();

    /**
     * Every route in order, with its cache filter where its hits may be answered early;
     * empty until routes load.
     */
    private volatile List<Candidate> candidates = List.of();

    public EarlyRoutes(RouteLocator routeLocator) {
        this.routeLocator = routeLocator;
    }

    /**
     * The route the gateway would pick, if it is one whose hits are answered early; else
     * null.
     */
    public @Nullable Match match(ServerWebExchange exchange) {
        for (Candidate candidate : candidates) {
            if (candidate.test().isEmpty()) {
                return null;
            }
            try {
                if (candidate.test().get().test(exchange)) {
                    return candidate.match();
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
            MemcachedCacheFilter cache = onlyCacheFilter(route.getFilters());
            candidates.add(new Candidate(SyncPredicates.of(route.getPredicate()),
                    cache != null ? new Match(route.getId(), cache) : null));
        }
        return List.copyOf(candidates);
    }

    private static @Nullable MemcachedCacheFilter onlyCacheFilter(List<GatewayFilter> filters) {
        if (filters.size() != 1) {
            return null;
        }
        return MemcachedCacheFilter.of(filters.get(0));
    }

    /** A route whose hits are answered early: its id and its cache filter. */
    public record Match(String routeId, MemcachedCacheFilter cache) {
    }

    /**
     * A route's predicate as a plain test (none if it has none), and the route, if its
     * hits may be answered early.
     */
    private record Candidate(Optional<Predicate<ServerWebExchange>> test, @Nullable Match match) {
    }

}
