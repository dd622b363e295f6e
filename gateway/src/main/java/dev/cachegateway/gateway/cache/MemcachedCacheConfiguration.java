package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code MemcachedCache} route filter.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedCacheConfiguration {

    @Bean
    MemcachedCacheGatewayFilterFactory memcachedCacheGatewayFilterFactory(ReactiveMemcached memcached,
            MemcachedCacheProperties defaults, MeterRegistry meters) {
        return new MemcachedCacheGatewayFilterFactory(memcached, defaults, meters);
    }
}
