package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import reactor.core.publisher.Flux;

import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.BooleanSpec;
import org.springframework.cloud.gateway.route.builder.Buildable;
import org.springframework.cloud.gateway.route.builder.PredicateSpec;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.core.Ordered;

/**
 * The routes the warm-up requests take, listed only while the gateway warms up: a cached
 * route whose one item is found again and again, a cached route where every request
 * misses and stores an item that lives ten seconds, a cached route whose one item expires
 * every second under requests that come together, a route without the cache, and the
 * configured routes' mirrors ({@link WarmUpMirrors}). All keys start with a reserved
 * prefix. Each route matches only requests that carry this start's token, so no client
 * can reach them, and all come before the configured routes.
 */
final class WarmUpRoutes implements RouteLocator {

    /**
     * What every key the warm-up writes starts with, locks included; nothing else is
     * written to memcached.
     */
    static final String KEY_PREFIX = "memcached-gateway:warm-up:";

    static final String PREFIX = "/.memcached-gateway/warm-up/";

    static final String HIT = "hit";

    static final String MISS = "miss";

    static final String PASS = "pass";

    /**
     * A hot item as it ends its life under load: the requests that find it gone miss
     * together, one asks the backend and the others join it, then the new item is hit.
     * Without it, the first real key to expire after ready took those branches for the
     * first time, and C2 threw away the hit path's compiled code with them.
     */
    static final String EXPIRING = "expiring";

    /**
     * The keys of the mirrors' items: a request's query string tells a miss (a new one on
     * each) from a hit (none), and its path, as nginx's {@code $uri}, makes the rest, as
     * the configured routes' keys are made.
     */
    static final String MIRROR_KEYS = KEY_PREFIX + "as:$args:$uri";

    static final List<String> PATHS = List.of(PREFIX + HIT, PREFIX + MISS, PREFIX + EXPIRING, PREFIX + PASS);

    static final String TOKEN_HEADER = "X-Memcached-Gateway-Warm-Up";

    static final String ID_PREFIX = "memcached-gateway-warm-up-";

    private final RouteLocatorBuilder builder;

    private final MemcachedCacheGatewayFilterFactory cache;

    private volatile Flux<Route> routes = Flux.empty();

    WarmUpRoutes(RouteLocatorBuilder builder, MemcachedCacheGatewayFilterFactory cache) {
        this.builder = builder;
        this.cache = cache;
    }

    /**
     * Lists the routes, to {@code backend}, for requests with {@code token}, with the
     * mirrors of {@code configured}; the gateway sees them once refreshed.
     */
    void open(URI backend, String token, List<Route> configured) {
        List<Route> mirrors = WarmUpMirrors.of(configured, backend,
                exchange -> token.equals(exchange.getRequest().getHeaders().getFirst(TOKEN_HEADER)),
                cache.apply(new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate(MIRROR_KEYS)));
        routes = Flux.concat(ownRoutes(backend, token), Flux.fromIterable(mirrors));
    }

    // The keys are made of the path ($uri) as the configured routes' usually are; the
    // miss route's also of the query string, so that each of its requests misses and
    // is stored.
    private Flux<Route> ownRoutes(URI backend, String token) {
        return builder.routes()
            .route(ID_PREFIX + HIT, r -> cached(r, HIT, KEY_PREFIX + HIT + ":$uri", backend, token))
            .route(ID_PREFIX + MISS, r -> cached(r, MISS, KEY_PREFIX + MISS + ":$args:$uri", backend, token))
            .route(ID_PREFIX + EXPIRING, r -> cached(r, EXPIRING, KEY_PREFIX + EXPIRING + ":$uri", backend, token))
            .route(ID_PREFIX + PASS, r -> withToken(r, PASS, token).uri(backend))
            .build()
            .getRoutes();
    }

    private Buildable<Route> cached(PredicateSpec route, String name, String keyTemplate, URI backend, String token) {
        return withToken(route, name, token).filters(
                f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate(keyTemplate))))
            .uri(backend);
    }

    private static BooleanSpec withToken(PredicateSpec route, String name, String token) {
        return route.order(Ordered.HIGHEST_PRECEDENCE).path(PREFIX + name).and().header(TOKEN_HEADER, token);
    }

    /** Lists no route any more; the gateway drops them once refreshed. */
    void close() {
        routes = Flux.empty();
    }

    @Override
    public Flux<Route> getRoutes() {
        return routes;
    }

}
