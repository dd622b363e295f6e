package dev.cachegateway.gateway.boot;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import org.apache.commons.logging.Log;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName.Form;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.env.OriginTrackedMapPropertySource;
import org.springframework.boot.logging.DeferredLogFactory;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.OriginTrackedValue;
import org.springframework.core.Ordered;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * Reads the properties that moved from {@code gateway.} to {@code memcached.} by their
 * earlier names too. Only those very names: anything else under {@code gateway.request},
 * {@code gateway.overload} or {@code gateway.warm-up} may be an application's own, and is
 * left alone. Each one set under an old name is copied to its new name, with a warning
 * that names both; where both names are set, the new one wins.
 */
class LegacyPropertyNames implements EnvironmentPostProcessor, Ordered {

    /** The moved properties, by their names under either root. */
    static final List<String> MOVED = List.of("request.max-body-size", "request.unkeyed-headers",
            "overload.max-concurrent-requests", "overload.max-concurrent-backend-calls", "overload.retry-after",
            "warm-up.duration", "warm-up.ready-within", "warm-up.concurrency");

    static final String SOURCE_NAME = "memcachedGatewayLegacyPropertyNames";

    private final Log log;

    LegacyPropertyNames(DeferredLogFactory logs) {
        this.log = logs.getLog(LegacyPropertyNames.class);
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        Map<String, Object> renamed = new LinkedHashMap<>();
        Map<String, Object> variables = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            boolean variable = source.getUnderlyingSource() instanceof SystemEnvironmentPropertySource;
            for (String moved : MOVED) {
                ConfigurationPropertyName old = ConfigurationPropertyName.of("gateway." + moved);
                iterable.filter(name -> isSetUnder(old, name, variable))
                    .forEach(name -> rename(source.getConfigurationProperty(name), old, "memcached." + moved,
                            variable ? variables : renamed, variable));
            }
        }
        // Last: a property set under its new name anywhere wins over one copied from its
        // old name.
        if (!renamed.isEmpty()) {
            environment.getPropertySources().addLast(new OriginTrackedMapPropertySource(SOURCE_NAME, renamed));
        }
        if (!variables.isEmpty()) {
            // Spring Boot maps a source's names as variables only by its name's ending.
            environment.getPropertySources()
                .addLast(new SystemEnvironmentPropertySource(
                        SOURCE_NAME + "-" + StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, variables));
        }
    }

    // The property itself, or one element of it where it is a list:
    // gateway.request.unkeyed-headers[0], ... An environment variable's name has no
    // dashes (GATEWAY_WARMUP_DURATION reads as gateway.warmup.duration).
    private static boolean isSetUnder(ConfigurationPropertyName old, ConfigurationPropertyName name, boolean variable) {
        if (!variable) {
            return old.equals(name) || old.isAncestorOf(name);
        }
        String undashed = old.toString().replace("-", "");
        String given = name.toString();
        return given.equals(undashed) || given.startsWith(undashed + ".") || given.startsWith(undashed + "[");
    }

    private void rename(@Nullable ConfigurationProperty property, ConfigurationPropertyName old, String moved,
            Map<String, Object> into, boolean variable) {
        if (property == null) {
            return;
        }
        ConfigurationPropertyName name = property.getName();
        ConfigurationPropertyName newName = ConfigurationPropertyName.of(moved);
        for (int i = old.getNumberOfElements(); i < name.getNumberOfElements(); i++) {
            String element = name.getElement(i, Form.ORIGINAL);
            newName = newName.append(name.isNumericIndex(i) ? "[" + element + "]" : element);
        }
        // An environment variable's new name is one too, bound as a variable's is (and
        // checked as one).
        String key = variable ? newName.toString()
            .replace("-", "")
            .replace('.', '_')
            .replace('[', '_')
            .replace("]", "")
            .toUpperCase(Locale.ROOT) : newName.toString();
        // The first source that holds it wins, as for any property.
        Object value = variable ? property.getValue()
                : OriginTrackedValue.of(property.getValue(), new RenamedFrom(name.toString(), property.getOrigin()));
        if (into.putIfAbsent(key, value) == null) {
            log.warn("Property '" + name + "' is deprecated: it is read as '" + newName + "'; rename it");
        }
    }

    /** Where a renamed property was set, under its old name. */
    private record RenamedFrom(String oldName, @Nullable Origin origin) implements Origin {

        @Override
        public @Nullable Origin getParent() {
            return origin;
        }

        @Override
        public String toString() {
            return "'" + oldName + "'" + (origin != null ? " from " + origin : "");
        }
    }

}
