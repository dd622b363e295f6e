package dev.cachegateway.gateway.boot;

import java.security.Security;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * What the JVM must be told before memcached is first reached, set as the application
 * starts unless the application or the command line set it already. The DNS cache's
 * lifetime takes effect only if no name was resolved before; this runs first among the
 * post-processors, but an application that resolves names earlier (or has Spring Cloud's
 * host-info post-processor run first) should set {@code networkaddress.cache.ttl} in its
 * main method, as the demo does.
 */
class JvmSettings implements EnvironmentPostProcessor, Ordered {

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /** The system property that chooses spymemcached's logger. */
    static final String SPYMEMCACHED_LOGGER = "net.spy.log.LoggerImpl";

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        // The JVM keeps a resolved name for 30 s by default. memcached servers that move
        // (a recreated container, a rescheduled pod) must be found again within seconds;
        // set before the first lookup, or it has no effect.
        setIfAbsent("networkaddress.cache.ttl", "5");
        setIfAbsent("networkaddress.cache.negative.ttl", "2");
        // spymemcached logs to stderr unless told otherwise, and reads this once, when it
        // logs first.
        if (System.getProperty(SPYMEMCACHED_LOGGER) == null) {
            System.setProperty(SPYMEMCACHED_LOGGER, "net.spy.memcached.compat.log.SLF4JLogger");
        }
    }

    private static void setIfAbsent(String securityProperty, String value) {
        if (Security.getProperty(securityProperty) == null) {
            Security.setProperty(securityProperty, value);
        }
    }

}
