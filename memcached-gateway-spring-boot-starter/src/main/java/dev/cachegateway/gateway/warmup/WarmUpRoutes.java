package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import reactor.core.publisher.Flux;

import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.core.Ordered;

/**
 * The routes the warm-up requests take, listed only while the gateway warms up: a cached
 * route whose one item is found again and again, a cached route where every request
 * misses and stores an item that lives a second, a route without the cache, and the
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
     * The keys of the mirrors' items: a request's query string tells a miss (a new one on
     * each) from a hit (none), and its path, as nginx's {@code $uri}, makes the rest, as
     * the configured routes' keys are made.
     */
    static final String MIRROR_KEYS = KEY_PREFIX + "as:$args:$uri";

    static final List<String> PATHS = List.of(PREFIX + HIT, PREFIX + MISS, PREFIX + PASS);

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

    // The keys are made of the path ($uri) as the configured routes' usually are.
    private Flux<Route> ownRoutes(URI backend, String token) {
        return builder.routes()
            .route(ID_PREFIX + HIT, r -> r.order(Ordered.HIGHEST_PRECEDENCE)
                .path(PREFIX + HIT)
                .and()
                .header(TOKEN_HEADER, token)
                .filters(f -> f.filter(cache
                    .apply(new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate(KEY_PREFIX + HIT + ":$uri"))))
                .uri(backend))
            .route(ID_PREFIX + MISS,
                    r -> r.order(Ordered.HIGHEST_PRECEDENCE)
                        .path(PREFIX + MISS)
                        .and()
                        .header(TOKEN_HEADER, token)
                        // A key per request, from the request's query string: each one
                        // misses and is stored.
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config()
                            .setKeyTemplate(KEY_PREFIX + MISS + ":$args:$uri"))))
                        .uri(backend))
            .route(ID_PREFIX + PASS,
                    r -> r.order(Ordered.HIGHEST_PRECEDENCE)
                        .path(PREFIX + PASS)
                        .and()
                        .header(TOKEN_HEADER, token)
                        .uri(backend))
            .build()
            .getRoutes();
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
