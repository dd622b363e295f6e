package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.outcome.CacheMetrics;

import org.springframework.cloud.gateway.event.RefreshRoutesResultEvent;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationListener;

/**
 * Registers the lookup counters of every route with a cache filter as routes load, so
 * that each shows at zero before its first request: a rate over a counter that appears at
 * one misses that one.
 */
final class CachedRouteMeters implements ApplicationListener<RefreshRoutesResultEvent> {

    private final RouteLocator routeLocator;

    private final CacheMetrics metrics;

    CachedRouteMeters(RouteLocator routeLocator, CacheMetrics metrics) {
        this.routeLocator = routeLocator;
        this.metrics = metrics;
    }

    @Override
    public void onApplicationEvent(RefreshRoutesResultEvent event) {
        routeLocator.getRoutes().filter(CachedRouteMeters::cached).subscribe(route -> metrics.lookups(route.getId()));
    }

    private static boolean cached(Route route) {
        return route.getFilters().stream().anyMatch(filter -> MemcachedCacheFilter.of(filter) != null);
    }

}
