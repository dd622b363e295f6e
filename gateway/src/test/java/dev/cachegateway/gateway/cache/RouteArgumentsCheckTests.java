package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.URI;
import java.util.List;

import dev.cachegateway.gateway.settings.UnknownSettingException;
import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.filter.FilterDefinition;
import org.springframework.cloud.gateway.route.RouteDefinition;

class RouteArgumentsCheckTests {

    private final RouteArgumentsCheck check = new RouteArgumentsCheck("MemcachedCache",
            MemcachedCacheGatewayFilterFactory.Config.class, List.of("keyTemplate"));

    @Test
    void refusesAMisspeltArgumentNamingItAndItsRoute() {
        FilterDefinition filter = new FilterDefinition("MemcachedCache");
        filter.addArg("key-tempalte", "$uri$is_args$args");

        assertThatThrownBy(() -> check.check(gateway(route("comments", filter), List.of())))
            .isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'key-tempalte'")
            .hasMessageContaining("route 'comments'")
            .hasMessageContaining("key-template");
    }

    @Test
    void takesEveryArgumentTheFilterKnowsInAnySpellingSpringBinds() {
        FilterDefinition filter = new FilterDefinition("MemcachedCache");
        filter.addArg("key-template", "$uri");
        filter.addArg("contentType", "text/html");
        filter.addArg("gzip_flag", "2");
        filter.addArg("store", "false");
        filter.addArg("default-ttl", "10s");
        filter.addArg("max-ttl", "1h");

        assertThatNoException().isThrownBy(() -> check.check(gateway(route("comments", filter), List.of())));
    }

    @Test
    void takesTheShortcutFormWithOneValueAndRefusesASecond() {
        assertThatNoException().isThrownBy(
                () -> check.check(gateway(route("comments", new FilterDefinition("MemcachedCache=$uri")), List.of())));

        assertThatThrownBy(() -> check
            .check(gateway(route("comments", new FilterDefinition("MemcachedCache=$uri,text/html")), List.of())))
            .isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'text/html'")
            .hasMessageContaining("route 'comments'");
    }

    @Test
    void checksDefaultFiltersAndLeavesOtherFiltersAlone() {
        FilterDefinition other = new FilterDefinition("AddRequestHeader");
        other.addArg("item-formt", "not ours");
        FilterDefinition cache = new FilterDefinition("MemcachedCache");
        cache.addArg("item-formt", "http");

        assertThatNoException().isThrownBy(() -> check.check(gateway(route("other", other), List.of())));
        assertThatThrownBy(() -> check.check(gateway(route("other", other), List.of(cache))))
            .isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'item-formt'")
            .hasMessageContaining("default-filters");
    }

    private static RouteDefinition route(String id, FilterDefinition filter) {
        RouteDefinition route = new RouteDefinition();
        route.setId(id);
        route.setUri(URI.create("http://localhost:4567"));
        route.setFilters(List.of(filter));
        return route;
    }

    private static GatewayProperties gateway(RouteDefinition route, List<FilterDefinition> defaultFilters) {
        GatewayProperties gateway = new GatewayProperties();
        gateway.setRoutes(List.of(route));
        gateway.setDefaultFilters(defaultFilters);
        return gateway;
    }

    @Test
    void refusesAGzipFlagAmongTheStaleWindowBitsNamingItsRoute() {
        FilterDefinition filter = new FilterDefinition("MemcachedCache");
        filter.addArg("gzip-flag", "65536");

        assertThatThrownBy(() -> check.check(gateway(route("gzipped", filter), List.of())))
            .hasMessageContaining("65536")
            .hasMessageContaining("route 'gzipped'");
    }

}
