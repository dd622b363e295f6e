package dev.cachegateway.demo;

import java.security.Security;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;

/**
 * The demo: a Spring Cloud Gateway that answers from memcached and falls back to
 * comments-service, as nginx's memcached_pass does. All it has of the cache comes from
 * the starter's auto-configuration, as in any application with that dependency; its
 * routes are in application.yml. It scans no components, so that it gets the starter's
 * beans only as a user's application does.
 */
@SpringBootConfiguration
@EnableAutoConfiguration
public class GatewayApplication {

    public static void main(String[] args) {
        // Before anything resolves a name: the JVM reads its DNS cache's lifetime once,
        // at the first lookup, and Spring Cloud's host-info post-processor looks up
        // before the starter's JvmSettings can set it. memcached servers that move (a
        // recreated container, a rescheduled pod) must be found again within seconds.
        Security.setProperty("networkaddress.cache.ttl", "5");
        Security.setProperty("networkaddress.cache.negative.ttl", "2");
        SpringApplication.run(GatewayApplication.class, args);
    }

}
