package dev.cachegateway.cache;

import java.util.List;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * The {@code MemcachedCache} route filter: {@code - MemcachedCache} or
 * {@code - MemcachedCache=$uri$is_args$args}, or the {@code name}/{@code args} form for
 * the other arguments ({@link MemcachedCacheArgs}). {@link CachedRoutes} builds each
 * route's filter.
 */
public class MemcachedCacheGatewayFilterFactory extends AbstractGatewayFilterFactory<MemcachedCacheArgs> {

    private final CachedRoutes routes;

    MemcachedCacheGatewayFilterFactory(CachedRoutes routes) {
        super(MemcachedCacheArgs.class);
        this.routes = routes;
    }

    @Override
    public GatewayFilter apply(MemcachedCacheArgs args) {
        return routes.filter(args, this);
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("keyTemplate");
    }

}
