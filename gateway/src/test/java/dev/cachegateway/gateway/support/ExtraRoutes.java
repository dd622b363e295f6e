package dev.cachegateway.gateway.support;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;

/**
 * Routes besides the application's: {@code /gzip/**} with gzip flag 2, {@code /args/**} keyed by
 * {@code $uri$is_args$args}, and {@code /unreachable/**}, whose backend refuses connections.
 */
@TestConfiguration(proxyBeanMethods = false)
class ExtraRoutes {

    @Bean
    RouteLocator extraRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
        return routes.routes()
                .route("gzip", r -> r.path("/gzip/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config()
                                .setGzipFlag(2))))
                        .uri(CacheIntegrationTest.backend.uri()))
                .route("with-args", r -> r.path("/args/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config()
                                .setKeyTemplate("$uri$is_args$args"))))
                        .uri(CacheIntegrationTest.backend.uri()))
                // Port 1: nothing listens there, so every connection is refused.
                .route("unreachable", r -> r.path("/unreachable/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                        .uri("http://127.0.0.1:1"))
                .build();
    }
}
