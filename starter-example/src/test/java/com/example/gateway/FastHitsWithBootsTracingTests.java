package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * A gateway that traces as Boot does ({@code memcached.tracing.head-sampling=false}) and
 * asks for fresh hits below Spring's WebHandler does without them: each request gets a
 * span there, sampled or not, and such a hit would have none. Its requests all go to
 * Spring's own handler, whose observation makes the spans.
 */
@Testcontainers
@SpringBootTest(classes = ExampleGatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT,
        properties = { "memcached.cache.hits-skip-web-filters=true", "memcached.tracing.head-sampling=false",
                "management.tracing.sampling.probability=1.0", "management.tracing.export.enabled=false",
                "management.otlp.metrics.export.enabled=false" })
class FastHitsWithBootsTracingTests {

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    @Autowired
    HttpHandler httpHandler;

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        registry.add("memcached.servers", () -> memcached.getHost() + ":" + memcached.getMappedPort(11211));
        registry.add("backend.uri", () -> "http://127.0.0.1:1");
    }

    @Test
    void leavesEveryRequestToSpringsHandlerWhereTheApplicationTraces() {
        assertThat(httpHandler).isExactlyInstanceOf(HttpWebHandlerAdapter.class);
    }

}
