package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code MemcachedCache} route filter. The in-flight requests and the store are shared by every
 * route, since all of them share one memcached key space.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedCacheConfiguration {

    @Bean
    MemcachedCacheGatewayFilterFactory memcachedCacheGatewayFilterFactory(ReactiveMemcached memcached,
            MemcachedCacheProperties defaults) {
        return new MemcachedCacheGatewayFilterFactory(memcached, defaults, new ResponseStore(memcached),
                new InFlightRequests());
    }
}
