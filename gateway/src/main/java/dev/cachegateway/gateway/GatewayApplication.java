package dev.cachegateway.gateway;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The demo: a Spring Cloud Gateway that answers from memcached and falls back to comments-service, as nginx's
 * memcached_pass does. All it has of the cache comes from the starter's auto-configuration, as in any application
 * with that dependency; its routes are in application.yml. It scans no components, so that the starter's classes,
 * which share its package, are configured only as a user's application gets them.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GatewayApplication {

    public static void main(String[] args) {
        SpringApplication.run(GatewayApplication.class, args);
    }
}
