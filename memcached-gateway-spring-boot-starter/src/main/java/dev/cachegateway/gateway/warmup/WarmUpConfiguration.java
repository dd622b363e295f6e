package dev.cachegateway.gateway.warmup;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.gateway.cache.tag.TagProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The warm-up before readiness; with memcached.warm-up.duration at 0 (the default) it
 * lists no route and sends nothing.
 */
@Configuration(proxyBeanMethods = false)
public class WarmUpConfiguration {

    @Bean
    @ConditionalOnMissingBean
    WarmUpRoutes warmUpRoutes(RouteLocatorBuilder builder, MemcachedCacheGatewayFilterFactory cache) {
        return new WarmUpRoutes(builder, cache);
    }

    @Bean
    @ConditionalOnMissingBean
    WarmUp warmUp(WarmUpProperties properties, WarmUpRoutes warmUpRoutes, RouteLocator routeLocator,
            ApplicationContext context, ObjectProvider<TagProperties> tags) {
        return new WarmUp(properties, warmUpRoutes, routeLocator, context,
                tags.stream().flatMap(found -> found.getHeaders().stream()).findFirst());
    }

}
