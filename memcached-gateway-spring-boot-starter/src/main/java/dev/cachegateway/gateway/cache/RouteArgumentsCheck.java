package dev.cachegateway.gateway.cache;

import java.beans.PropertyDescriptor;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.cachegateway.gateway.settings.UnknownSettingException;

import org.springframework.beans.BeanUtils;
import org.springframework.boot.context.properties.bind.DataObjectPropertyName;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;
import org.springframework.cloud.gateway.support.NameUtils;

/**
 * Refuses a {@code MemcachedCache} argument the filter does not know, in the routes and
 * default filters of the configuration. Spring Cloud Gateway binds a filter's arguments
 * leniently and drops the rest, so that {@code key-tempalte: $uri$is_args$args} would
 * leave the route on the default key without a word.
 */
final class RouteArgumentsCheck {

    private final String filterName;

    private final List<String> shortcutFields;

    private final List<String> known = new ArrayList<>();

    RouteArgumentsCheck(MemcachedCacheGatewayFilterFactory factory) {
        this(factory.name(), factory.getConfigClass(), factory.shortcutFieldOrder());
    }

    RouteArgumentsCheck(String filterName, Class<?> configClass, List<String> shortcutFields) {
        this.filterName = filterName;
        this.shortcutFields = shortcutFields;
        for (PropertyDescriptor property : BeanUtils.getPropertyDescriptors(configClass)) {
            if (property.getWriteMethod() != null) {
                known.add(DataObjectPropertyName.toDashedForm(property.getName()));
            }
        }
    }

    /** Fails on the first unknown argument, naming it and its route. */
    void check(GatewayProperties gateway) {
        for (RouteDefinition route : gateway.getRoutes()) {
            for (FilterDefinition filter : route.getFilters()) {
                check(filter, "route '" + route.getId() + "'");
            }
        }
        for (FilterDefinition filter : gateway.getDefaultFilters()) {
            check(filter, "default-filters");
        }
    }

    private void check(FilterDefinition filter, String where) {
        if (!filterName.equals(filter.getName())) {
            return;
        }
        for (String argument : filter.getArgs().keySet()) {
            if (argument.startsWith(NameUtils.GENERATED_NAME_PREFIX)) {
                int index = Integer.parseInt(argument.substring(NameUtils.GENERATED_NAME_PREFIX.length()));
                if (index >= shortcutFields.size()) {
                    throw new UnknownSettingException(
                            "'" + filter.getArgs().get(argument) + "' (value " + (index + 1) + " of the " + filterName
                                    + "= shortcut in " + where + ")",
                            "the shortcut takes " + shortcutFields.size() + " value, " + shortcutFields
                                    + "; the others go in args");
                }
            }
            else if (known.stream().noneMatch(name -> relaxed(name).equals(relaxed(argument)))) {
                throw new UnknownSettingException(
                        "'" + argument + "' (an argument of " + filterName + " in " + where + ")", known.toString());
            }
            else if (relaxed(argument).equals("gzipflag")) {
                checkGzipFlag(filter.getArgs().get(argument), where);
            }
        }
    }

    // Spring Cloud Gateway drops a route whose filter fails to apply, with a warning:
    // this stops startup instead.
    private static void checkGzipFlag(String value, String where) {
        try {
            RouteSettings.checkGzipFlag(Integer.decode(value.trim()));
        }
        catch (NumberFormatException ex) {
            // Not a number: binding says so in its own words.
        }
        catch (IllegalArgumentException ex) {
            throw new IllegalStateException(ex.getMessage() + " (in " + where + ")", ex);
        }
    }

    // As Spring binds them: key-template, keyTemplate and key_template are one name.
    private static String relaxed(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(Locale.ROOT);
    }

}
