package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A user's gateway with the starter, from outside: its cached routes, in YAML and in the
 * Java DSL, miss and then hit on a real memcached; a misspelt filter argument stops it at
 * startup; and its uncached route answers as it would without the starter.
 */
@Testcontainers
@SpringBootTest(classes = ExampleGatewayApplication.class, webEnvironment = WebEnvironment.RANDOM_PORT)
class ExampleGatewayTests {

    @Container
    static final GenericContainer<?> memcached = new GenericContainer<>("memcached:1.6").withExposedPorts(11211);

    static final CountingBackend backend = new CountingBackend();

    private final HttpClient http = HttpClient.newHttpClient();

    @LocalServerPort
    int port;

    @Autowired
    ApplicationContext context;

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        registry.add("memcached.servers", ExampleGatewayTests::memcachedServer);
        registry.add("backend.uri", backend::uri);
    }

    @AfterAll
    static void stopBackend() {
        backend.close();
    }

    @Test
    void aYamlRouteMissesThenHits() throws Exception {
        assertMissThenHit("/yaml/comments/1");
    }

    @Test
    void aJavaDslRouteMissesThenHits() throws Exception {
        assertMissThenHit("/dsl/comments/1");
    }

    @Test
    void aMisspeltFilterArgumentStopsStartupNamingIt() {
        Throwable failure = catchThrowable(
                () -> start(ExampleGatewayApplication.class, "--spring.cloud.gateway.server.webflux.routes[0].id=typo",
                        "--spring.cloud.gateway.server.webflux.routes[0].uri=" + backend.uri(),
                        "--spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/typo/**",
                        "--spring.cloud.gateway.server.webflux.routes[0].filters[0].name=MemcachedCache",
                        "--spring.cloud.gateway.server.webflux.routes[0].filters[0].args.key-tempalte=$uri")
                    .close());

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure).getMessage()).contains("'key-tempalte'",
                "route 'typo'");
    }

    @Test
    void anUncachedRouteAnswersAsWithoutTheStarter() throws Exception {
        HttpResponse<String> withStarter = get(port, "/plain/comments/1");
        HttpResponse<String> without;
        // The application's uncached route alone, on a gateway whose starter is off.
        try (ConfigurableApplicationContext plain = start(WithoutTheStarter.class, "--memcached.enabled=false",
                "--spring.cloud.gateway.server.webflux.routes[0].id=uncached",
                "--spring.cloud.gateway.server.webflux.routes[0].uri=" + backend.uri(),
                "--spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/plain/**")) {
            without = get(((WebServerApplicationContext) plain).getWebServer().getPort(), "/plain/comments/1");
        }

        assertThat(withStarter.statusCode()).isEqualTo(without.statusCode()).isEqualTo(200);
        assertThat(headersBut(withStarter, "date")).isEqualTo(headersBut(without, "date"));
        assertThat(withStarter.body().replaceAll("\"call\":\\d+", ""))
            .isEqualTo(without.body().replaceAll("\"call\":\\d+", ""));
    }

    // The demo turns on a body limit and concurrency limits; an application that takes
    // the starter has them off.
    @Test
    void takesABodyOfAnySizeAndSetsNoConcurrencyLimitUnlessTold() throws Exception {
        byte[] upload = new byte[2 * 1024 * 1024];
        HttpResponse<String> answer = http
            .send(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/plain/upload"))
                .POST(HttpRequest.BodyPublishers.ofByteArray(upload))
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(answer.body()).contains("\"received\":" + upload.length);
        assertThat(context.containsBean("admissionLimitFilter")).isFalse();
        assertThat(context.containsBean("backendCallLimitFilter")).isFalse();
    }

    private void assertMissThenHit(String path) throws Exception {
        int before = backend.calls();
        HttpResponse<String> miss = get(port, path);
        assertThat(miss.statusCode()).isEqualTo(200);
        assertThat(miss.headers().firstValue("X-Cache")).hasValue("MISS");

        // The store lands after the answer, so the first hit may take a moment.
        HttpResponse<String> hit = await().atMost(Duration.ofSeconds(5))
            .until(() -> get(port, path), answer -> answer.headers().firstValue("X-Cache").equals(Optional.of("HIT")));
        assertThat(hit.body()).isEqualTo(miss.body());
        assertThat(backend.calls() - before).isEqualTo(1);
    }

    private HttpResponse<String> get(int on, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://localhost:" + on + path)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static Map<String, List<String>> headersBut(HttpResponse<?> answer, String left) {
        Map<String, List<String>> headers = new TreeMap<>(answer.headers().map());
        headers.remove(left);
        return headers;
    }

    private static ConfigurableApplicationContext start(Class<?> application, String... settings) {
        String[] args = new String[settings.length + 4];
        args[0] = "--server.port=0";
        args[1] = "--management.server.port=0";
        args[2] = "--memcached.servers=" + memcachedServer();
        args[3] = "--backend.uri=" + backend.uri();
        System.arraycopy(settings, 0, args, 4, settings.length);
        return new SpringApplicationBuilder(application).run(args);
    }

    /** A gateway with no routes of its own in code, whose starter a setting turns off. */
    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class WithoutTheStarter {

    }

    private static String memcachedServer() {
        return memcached.getHost() + ":" + memcached.getMappedPort(11211);
    }

}
