package dev.cachegateway.gateway;

import java.security.Security;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * A Spring Cloud Gateway that answers from memcached and falls back to the backend, as nginx's memcached_pass does.
 */
@SpringBootApplication
@ConfigurationPropertiesScan
public class GatewayApplication {

    /** The system property that chooses spymemcached's logger. */
    private static final String SPYMEMCACHED_LOGGER = "net.spy.log.LoggerImpl";

    public static void main(String[] args) {
        // The JVM keeps a resolved name for 30 s by default. memcached servers that move (a recreated container, a
        // rescheduled pod) must be found again within seconds; set before the first lookup, or it has no effect.
        Security.setProperty("networkaddress.cache.ttl", "5");
        Security.setProperty("networkaddress.cache.negative.ttl", "2");
        // spymemcached logs to stderr unless told otherwise, and reads this once, when it logs first.
        System.setProperty(SPYMEMCACHED_LOGGER, "net.spy.memcached.compat.log.SLF4JLogger");
        SpringApplication.run(GatewayApplication.class, args);
    }
}
