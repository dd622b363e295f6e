package dev.cachegateway.demo.support;

import java.time.Duration;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.gateway.cache.format.FormatName;

import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;

/**
 * Routes besides the application's: {@code /gzip/**} with gzip flag 2, {@code /args/**}
 * keyed by {@code $uri$is_args$args}, {@code /lang/**} keyed by {@code $uri} and
 * {@code Accept-Language}, {@code /default-ttl/**} with a default TTL of 60 s,
 * {@code /unreachable/**}, whose backend refuses connections, {@code /raw/**}, whose
 * backend is the {@link RawBackend}, and {@code /whole/**}, whose items hold whole
 * answers ({@code item-format: http}), and {@code /narrow/**}, which makes one backend
 * call at a time.
 */
@TestConfiguration(proxyBeanMethods = false)
class ExtraRoutes {

    @Bean
    RouteLocator extraRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory cache) {
        return routes.routes()
            .route("gzip", r -> r.path("/gzip/**")
                .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config().setGzipFlag(2))))
                .uri(CacheIntegrationTest.backend.uri()))
            .route("with-args", r -> r.path("/args/**")
                .filters(f -> f.filter(cache
                    .apply(new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate("$uri$is_args$args"))))
                .uri(CacheIntegrationTest.backend.uri()))
            .route("by-language", r -> r.path("/lang/**")
                .filters(f -> f.filter(cache.apply(
                        new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate("$uri|$http_accept_language"))))
                .uri(CacheIntegrationTest.backend.uri()))
            .route("default-ttl", r -> r.path("/default-ttl/**")
                .filters(f -> f.filter(cache
                    .apply(new MemcachedCacheGatewayFilterFactory.Config().setDefaultTtl(Duration.ofSeconds(60)))))
                .uri(CacheIntegrationTest.backend.uri()))
            .route("whole", r -> r.path("/whole/**")
                .filters(f -> f.filter(
                        cache.apply(new MemcachedCacheGatewayFilterFactory.Config().setItemFormat(FormatName.HTTP))))
                .uri(CacheIntegrationTest.backend.uri()))
            .route("raw",
                    r -> r.path("/raw/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                        .uri(CacheIntegrationTest.rawBackend.uri()))
            // A cached route whose backend takes one call at a time.
            .route("one-call-at-a-time",
                    r -> r.path("/narrow/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                        .metadata("max-concurrent-backend-calls", 1)
                        .uri(CacheIntegrationTest.backend.uri()))
            // Port 1: nothing listens there, so every connection is refused.
            .route("unreachable",
                    r -> r.path("/unreachable/**")
                        .filters(f -> f.filter(cache.apply(new MemcachedCacheGatewayFilterFactory.Config())))
                        .uri("http://127.0.0.1:1"))
            .build();
    }

}
