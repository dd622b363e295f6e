package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.cachegateway.demo.GatewayApplication;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway says at startup which cached routes answer hits before routing, and why the
 * others do not.
 */
@ExtendWith(OutputCaptureExtension.class)
class EarlyHitReportTests {

    private static final String[] SETTINGS = { "--server.port=0", "--management.server.port=0",
            "--memcached.servers=localhost:1" };

    @Test
    void namesTheDemosRoutesThatAnswerHitsEarlyAndThoseRoutedFirst(CapturedOutput output) {
        try (ConfigurableApplicationContext gateway = new SpringApplicationBuilder(GatewayApplication.class)
            .run(SETTINGS)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("answered before routing"));

            assertThat(output.getOut()).contains("answered before routing: [comments]")
                .contains("routed first, for their other filters: [comments-whole]")
                .doesNotContain("cannot be read at once");
        }
    }

    @Test
    void warnsOfCachedRoutesAfterAPredicateItCannotRead(CapturedOutput output) {
        try (ConfigurableApplicationContext gateway = new SpringApplicationBuilder(GatewayApplication.class,
                UnreadableFirst.class)
            .run(SETTINGS)) {
            await().atMost(Duration.ofSeconds(10)).until(() -> output.getOut().contains("answered before routing"));

            assertThat(output.getOut()).contains("cannot be read at once")
                .contains("comments (after route unreadable)");
        }
    }

    /**
     * A route ahead of the demo's whose predicate is a lambda of its own, which no plain
     * test can stand for.
     */
    @Configuration(proxyBeanMethods = false)
    static class UnreadableFirst {

        @Bean
        RouteLocator unreadable(RouteLocatorBuilder routes) {
            return routes.routes()
                .route("unreadable",
                        route -> route.order(-1).asyncPredicate(exchange -> Mono.just(false)).uri("http://localhost:1"))
                .build();
        }

    }

}
