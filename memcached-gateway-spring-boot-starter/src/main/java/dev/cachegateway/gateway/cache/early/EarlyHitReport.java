package dev.cachegateway.gateway.cache.early;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.web.server.ServerWebExchange;

/**
 * Says, when routes load and whenever that changes, which cached routes have their hits
 * answered before routing, and why the others do not. {@link SyncPredicates} reads
 * predicates through Spring Cloud Gateway's private fields: were an upgrade to change
 * them, hits would quietly take the slower way, and this is where that shows.
 */
final class EarlyHitReport {

    private static final Logger log = LoggerFactory.getLogger(EarlyHitFilter.class);

    private String last = "";

    /**
     * {@code tests} holds each route's predicate as a plain test, in the routes' order,
     * if it could be read.
     */
    synchronized void report(List<Route> routes, List<Optional<Predicate<ServerWebExchange>>> tests) {
        List<String> early = new ArrayList<>();
        List<String> routed = new ArrayList<>();
        List<String> unread = new ArrayList<>();
        // The first route whose predicate cannot be read: no route after it is answered
        // early.
        @Nullable String blocker = null;
        for (int i = 0; i < routes.size(); i++) {
            Route route = routes.get(i);
            if (tests.get(i).isEmpty() && blocker == null) {
                blocker = route.getId();
            }
            long caches = route.getFilters().stream().filter(EarlyHitReport::isCache).count();
            if (caches == 0) {
                continue;
            }
            if (route.getFilters().size() > 1) {
                routed.add(route.getId());
            }
            else if (blocker != null) {
                unread.add(route.getId() + " (after route " + blocker + ")");
            }
            else {
                early.add(route.getId());
            }
        }
        String now = early + " " + routed + " " + unread;
        if (now.equals(last)) {
            return;
        }
        last = now;
        log.info("Cached routes whose hits are answered before routing: {}; routed first, for their other filters: {}",
                early, routed);
        if (!unread.isEmpty()) {
            log.warn(
                    "Cached routes whose hits are routed first, since a predicate up to them cannot be read at once"
                            + " (a Spring Cloud Gateway upgrade may have changed how predicates are joined): {}",
                    unread);
        }
    }

    private static boolean isCache(GatewayFilter filter) {
        GatewayFilter inner = filter instanceof OrderedGatewayFilter ordered ? ordered.getDelegate() : filter;
        return inner instanceof MemcachedCacheFilter;
    }

}
