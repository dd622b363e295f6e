package dev.cachegateway.gateway.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.ConfigurationPropertiesBean;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stops startup on a property under {@code memcached.}, {@code gateway.request.}, {@code gateway.overload.} or
 * {@code gateway.warm-up.} that nothing binds, once every properties bean exists. Not all of {@code gateway.}:
 * scripts export GATEWAY_JAR, GATEWAY_JAVA_OPTS and the like, which are no settings of the gateway's.
 */
@Configuration(proxyBeanMethods = false)
public class SettingsCheckConfiguration {

    private static final List<String> ROOTS = List.of("memcached", "gateway.request", "gateway.overload",
            "gateway.warm-up");

    @Bean
    @ConditionalOnMissingBean(name = "memcachedPropertiesCheck")
    SmartInitializingSingleton memcachedPropertiesCheck(ApplicationContext context) {
        return () -> {
            for (String root : ROOTS) {
                Map<String, Object> beans = new LinkedHashMap<>();
                ConfigurationPropertiesBean.getAll(context).values().forEach(bean -> {
                    String prefix = bean.getAnnotation().prefix();
                    if (prefix.equals(root) || prefix.startsWith(root + ".")) {
                        beans.put(prefix, bean.getInstance());
                    }
                });
                new UnknownPropertiesCheck(root, beans).check(context.getEnvironment());
            }
        };
    }
}
