package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Predicate;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.cache.early.SyncPredicates;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.core.Ordered;
import org.springframework.web.server.ServerWebExchange;

/**
 * The configured routes as the warm-up takes them, for the paths it asks for that clients
 * would ask for: each one's own predicate, for requests with the warm-up's token, in the
 * configured order and ahead of the configured routes, so that such a request walks the
 * predicates a real one walks, and, on a cached route, is answered before routing where a
 * real hit would be. It leads to the warm-up's backend, and a cached route's mirror looks
 * up and stores through the warm-up's own cache filter, under its reserved keys: no
 * configured backend gets the request, and no key of a configured route is written. The
 * route's other filters stay out, since they may call out of the gateway; one that does
 * nothing stands in for them, so that the early hit filter leaves the mirror's hits to
 * routing as it leaves the configured route's.
 */
final class WarmUpMirrors {

    static final String ID_PREFIX = WarmUpRoutes.ID_PREFIX + "as-";

    private static final GatewayFilter STAND_IN = new OrderedGatewayFilter((exchange, chain) -> chain.filter(exchange),
            Ordered.HIGHEST_PRECEDENCE);

    private WarmUpMirrors() {
    }

    /**
     * The mirrors of {@code configured}, in their order, to {@code backend}, for requests
     * that {@code token} accepts, with {@code cache} as their cache filter.
     */
    static List<Route> of(List<Route> configured, URI backend, Predicate<ServerWebExchange> token,
            GatewayFilter cache) {
        List<Route> mirrors = new ArrayList<>(configured.size());
        for (Route route : configured) {
            if (route.getId().startsWith(WarmUpRoutes.ID_PREFIX)) {
                continue;
            }
            mirrors.add(Route.async()
                .id(ID_PREFIX + route.getId())
                // After the warm-up's own routes, before every configured one.
                .order(Ordered.HIGHEST_PRECEDENCE + 1 + mirrors.size())
                .uri(backend)
                .asyncPredicate(predicate(route.getPredicate(), token))
                .filters(filters(route.getFilters(), cache))
                .build());
        }
        return List.copyOf(mirrors);
    }

    /**
     * The route's predicate for requests with the token. Where it answers at once, the
     * two make one plain predicate, as the configured route's is: the early hit filter
     * then meets the same kind of predicate in the warm-up as after it, and the JIT
     * compiler does not have to undo what it compiled for the warm-up's alone.
     */
    private static AsyncPredicate<ServerWebExchange> predicate(AsyncPredicate<ServerWebExchange> configured,
            Predicate<ServerWebExchange> token) {
        Optional<Predicate<ServerWebExchange>> plain = SyncPredicates.of(configured);
        if (plain.isPresent()) {
            Predicate<ServerWebExchange> test = plain.get();
            return AsyncPredicate.from(exchange -> token.test(exchange) && test.test(exchange));
        }
        return AsyncPredicate.from(token).and(configured);
    }

    private static List<GatewayFilter> filters(List<GatewayFilter> configured, GatewayFilter cache) {
        boolean cached = configured.stream().anyMatch(filter -> MemcachedCacheFilter.of(filter) != null);
        if (!cached) {
            return List.of();
        }
        return configured.size() == 1 ? List.of(cache) : List.of(cache, STAND_IN);
    }

}
