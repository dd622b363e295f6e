package dev.cachegateway.gateway.settings;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Refuses a property under a root such as {@code memcached} that no
 * {@code @ConfigurationProperties} class binds. Spring Boot's own check
 * ({@code ignoreUnknownFields = false}) works per class, and the gateway's classes share
 * the root ({@code memcached}, {@code memcached.cache},
 * {@code memcached.cache.near-cache}), so each would refuse the others' properties.
 * Kubernetes' service links ({@code MEMCACHED_PORT}, {@code MEMCACHED_SERVICE_HOST},
 * ...), which a Service named memcached puts into every pod's environment, are let
 * through.
 */
public final class UnknownPropertiesCheck {

    private static final String OWN_PACKAGE = "dev.cachegateway.";

    private final ConfigurationPropertyName root;

    private final List<ConfigurationPropertyName> known = new ArrayList<>();

    /**
     * @param root the root whose properties are checked
     * @param beans every properties object under that root, each with its prefix; one
     * prefix may have several
     */
    public UnknownPropertiesCheck(String root, Collection<? extends Map.Entry<String, ?>> beans) {
        this.root = ConfigurationPropertyName.of(root);
        beans.forEach(bean -> collect(ConfigurationPropertyName.of(bean.getKey()), bean.getValue().getClass()));
    }

    /**
     * Fails on the first property under the root that nothing binds, naming it and where
     * it was set.
     */
    public void check(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            boolean environmentVariables = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
            iterable.filter(root::isAncestorOf)
                .stream()
                .filter(name -> environmentVariables ? !isKnownVariable(name) && !isServiceLink(name) : !isKnown(name))
                .findFirst()
                .ifPresent(name -> {
                    throw new UnknownSettingException(describe(source, name), knownNames());
                });
        }
    }

    private void collect(ConfigurationPropertyName prefix, Class<?> type) {
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(type)) {
            if (property.getReadMethod() == null || property.getName().equals("class")) {
                continue;
            }
            ConfigurationPropertyName name = prefix.append(DataObjectPropertyName.toDashedForm(property.getName()));
            Class<?> valueType = property.getPropertyType();
            // A nested group of the gateway's own (circuit-breaker, say) is walked into;
            // anything else is a value.
            if (valueType.getName().startsWith(OWN_PACKAGE) && !valueType.isEnum()) {
                collect(name, valueType);
            }
            else {
                known.add(name);
            }
        }
    }

    // A value's name, or an element of it: memcached.servers[0], a map's key.
    private boolean isKnown(ConfigurationPropertyName name) {
        return known.stream().anyMatch(value -> value.equals(name) || value.isAncestorOf(name));
    }

    /*
     * An environment variable's name says nothing of where a property's name had dashes:
     * MEMCACHED_CACHE_STALE_IF_ERROR lists as memcached.cache.stale.if.error. So it is
     * compared with the known names as letters and digits alone, and one that starts with
     * a value's name (MEMCACHED_SERVERS_0) is an element of it.
     */
    private boolean isKnownVariable(ConfigurationPropertyName name) {
        String variable = lettersAndDigits(name);
        return known.stream().map(UnknownPropertiesCheck::lettersAndDigits).anyMatch(variable::startsWith);
    }

    private static String lettersAndDigits(ConfigurationPropertyName name) {
        return name.toString().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
    }

    // <SERVICE>_PORT..., <SERVICE>_SERVICE_HOST and _SERVICE_PORT...: what Kubernetes
    // adds for a Service.
    private boolean isServiceLink(ConfigurationPropertyName name) {
        String first = name.getElement(root.getNumberOfElements(), ConfigurationPropertyName.Form.UNIFORM);
        return first.equals("port") || first.equals("service");
    }

    private static String describe(ConfigurationPropertySource source, ConfigurationPropertyName name) {
        ConfigurationProperty property = source.getConfigurationProperty(name);
        Origin origin = property != null ? property.getOrigin() : null;
        return "'" + name + "'" + (origin != null ? " (" + origin + ")" : "");
    }

    private String knownNames() {
        return known.stream()
            .map(ConfigurationPropertyName::toString)
            .collect(Collectors.toCollection(TreeSet::new))
            .toString();
    }

}
