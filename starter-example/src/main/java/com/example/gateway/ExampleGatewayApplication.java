package com.example.gateway;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;

/**
 * A gateway of a user's own: its YAML routes are in application.yml, and one route is in
 * the Java DSL here.
 */
@SpringBootApplication
public class ExampleGatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(ExampleGatewayApplication.class, args);
    }

    @Bean
    RouteLocator javaRoutes(RouteLocatorBuilder routes, MemcachedCacheGatewayFilterFactory memcachedCache,
            @Value("${backend.uri}") String backend) {
        return routes.routes()
            .route("java-dsl", route -> route.path("/dsl/**")
                .filters(filters -> filters.filter(memcachedCache.apply(cache -> cache.setKeyTemplate("dsl:$uri"))))
                .uri(backend))
            .build();
    }

}
