package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.early.EarlyHitFilter;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code MemcachedCache} route filter, the near-cache it may use, and the filter that answers its
 * hits before routing.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedCacheConfiguration {

    @Bean
    NearCache nearCache(NearCacheProperties properties) {
        return NearCache.of(properties);
    }

    @Bean
    MemcachedCacheGatewayFilterFactory memcachedCacheGatewayFilterFactory(ReactiveMemcached memcached,
            MemcachedCacheProperties defaults, NearCache nearCache, MeterRegistry meters) {
        return new MemcachedCacheGatewayFilterFactory(memcached, defaults, nearCache, meters);
    }

    @Bean
    EarlyHitFilter earlyHitFilter(RouteLocator routeLocator, ApplicationContext context) {
        return new EarlyHitFilter(routeLocator, context);
    }
}
