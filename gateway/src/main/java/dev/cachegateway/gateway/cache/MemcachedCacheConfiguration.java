package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code MemcachedCache} route filter.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedCacheConfiguration {

    @Bean
    MemcachedCacheGatewayFilterFactory memcachedCacheGatewayFilterFactory(ReactiveMemcached memcached,
            MemcachedCacheProperties defaults) {
        return new MemcachedCacheGatewayFilterFactory(memcached, defaults);
    }
}
