package dev.cachegateway.gateway.settings;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.ConfigurationPropertiesBean;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Stops startup on a property under {@code memcached.} that nothing binds, once every
 * properties bean exists. Only that root, which the starter owns: an application's own
 * properties elsewhere are none of its business.
 */
@Configuration(proxyBeanMethods = false)
public class SettingsCheckConfiguration {

    private static final String ROOT = "memcached";

    @Bean
    @ConditionalOnMissingBean(name = "memcachedPropertiesCheck")
    SmartInitializingSingleton memcachedPropertiesCheck(ApplicationContext context) {
        return () -> {
            // A list, not a map by prefix: two classes may share one (memcached.cache).
            List<Map.Entry<String, Object>> beans = new ArrayList<>();
            ConfigurationPropertiesBean.getAll(context).values().forEach(bean -> {
                String prefix = bean.getAnnotation().prefix();
                if (prefix.equals(ROOT) || prefix.startsWith(ROOT + ".")) {
                    beans.add(Map.entry(prefix, bean.getInstance()));
                }
            });
            new UnknownPropertiesCheck(ROOT, beans).check(context.getEnvironment());
        };
    }

}
