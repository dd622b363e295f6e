package dev.cachegateway.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;

@SpringBootTest
class GatewayApplicationTests {

    @Autowired
    RouteLocator routes;

    @Test
    void routesTheApiToCommentsService() {
        Route route = routes.getRoutes().filter(r -> r.getId().equals("comments")).blockFirst();

        assertThat(route).isNotNull();
        assertThat(route.getUri()).hasToString("http://localhost:4567");
    }
}
