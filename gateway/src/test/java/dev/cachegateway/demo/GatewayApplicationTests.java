package dev.cachegateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.test.annotation.DirtiesContext;

// Closed after the class: with the default memcached.servers nothing answers, and a
// cached context would keep a client reconnecting in the background through every later
// test.
@SpringBootTest
@DirtiesContext
class GatewayApplicationTests {

    @Autowired
    RouteLocator routes;

    @Test
    void routesTheApiToCommentsServiceThroughTheCache() {
        Route route = route("comments");

        assertThat(route.getUri()).hasToString("http://localhost:4567");
        assertThat(route.getFilters()).extracting(Object::toString).anyMatch(f -> f.contains("MemcachedCache"));
    }

    @Test
    void describesTheCacheFilterWithAllItsSettings() {
        assertThat(route("comments").getFilters()).extracting(Object::toString)
            .anySatisfy(filter -> assertThat(filter).contains("MemcachedCache")
                .contains("keyTemplate = '$uri'", "contentType = application/json", "gzipFlag = 0", "store = true",
                        "defaultTtl = PT0S", "maxTtl = PT24H", "bypassHeaders = list['Authorization']",
                        "storeStatuses = list[200]", "maxItemSize = 1048576B", "lockTimeout = PT5S"));
    }

    @Test
    void routesTheNoCachePathsFirstAndWithoutTheCache() {
        List<Route> all = routes.getRoutes().collectList().block();
        Route uncached = route("comments-uncached");

        assertThat(all).extracting(Route::getId).containsSubsequence("comments-uncached", "comments");
        assertThat(uncached.getUri()).hasToString("http://localhost:4567");
        assertThat(uncached.getFilters()).extracting(Object::toString).noneMatch(f -> f.contains("MemcachedCache"));
    }

    private Route route(String id) {
        Route route = routes.getRoutes().filter(r -> r.getId().equals(id)).blockFirst();
        assertThat(route).as("route %s", id).isNotNull();
        return route;
    }

}
