package dev.cachegateway.gateway.cache.purge;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.PurgeToken;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.testcontainers.containers.GenericContainer;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Purges need the token: against a real memcached, a purge without it, or with a wrong
 * one, is answered 401 and deletes nothing; with it, it deletes, is logged once and
 * counted. Without a token set, purges are refused unless a setting opens them. Health
 * stays open.
 */
@ExtendWith(OutputCaptureExtension.class)
class PurgeGuardTests {

    static final GenericContainer<?> memcached = MemcachedContainer.shared();

    static final String PATH = "/api/v1/comments/purge-guarded";

    static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    static ConfigurableApplicationContext guarded;

    MemcachedTextClient raw;

    @BeforeAll
    static void startGateway() {
        // The backend is never asked: only the management port is under test.
        guarded = GatewayReplicas.start(memcached, "http://127.0.0.1:1", PurgeToken.SETTING);
    }

    @AfterAll
    static void stopGateway() {
        guarded.close();
    }

    @BeforeEach
    void storeItem() throws Exception {
        raw = MemcachedContainer.textClient(memcached);
        raw.set(PATH, 0, 0, "{}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void refusesAPurgeWithoutTheTokenOrWithAWrongOne() throws Exception {
        HttpResponse<String> without = purge(guarded, null);
        HttpResponse<String> wrong = purge(guarded, "Bearer " + PurgeToken.TOKEN + "x");
        HttpResponse<String> notBearer = purge(guarded, "Basic " + PurgeToken.TOKEN);

        assertThat(without.statusCode()).isEqualTo(401);
        assertThat(without.headers().firstValue("WWW-Authenticate")).hasValue("Bearer realm=\"memcached\"");
        assertThat(without.body()).contains("\"error\":\"a purge needs Authorization: Bearer");
        assertThat(wrong.statusCode()).isEqualTo(401);
        assertThat(notBearer.statusCode()).isEqualTo(401);
        assertThat(raw.get(PATH)).isNotNull();
        assertThat(purges(guarded, "401")).isEqualTo(3);
    }

    @Test
    void purgesWithTheTokenAndSaysSoOnce(CapturedOutput output) throws Exception {
        double before = purges(guarded, "200");

        HttpResponse<String> answer = purge(guarded, PurgeToken.BEARER);

        assertThat(answer.statusCode()).isEqualTo(200);
        assertThat(raw.get(PATH)).isNull();
        assertThat(purges(guarded, "200")).isEqualTo(before + 1);
        assertThat(output.getOut()).containsOnlyOnce("A hard purge of path " + PATH + " from 127.0.0.1:");
    }

    @Test
    void leavesHealthOpenAndTheGatewaysOwnPortUnguarded() throws Exception {
        HttpResponse<String> health = http.send(
                HttpRequest.newBuilder(URI.create(GatewayReplicas.managementUri(guarded) + "/actuator/health")).build(),
                HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> routed = http
            .send(HttpRequest.newBuilder(URI.create(GatewayReplicas.uri(guarded, "/actuator/memcached" + PATH)))
                .DELETE()
                .build(), HttpResponse.BodyHandlers.ofString());

        assertThat(health.statusCode()).isEqualTo(200);
        assertThat(routed.statusCode()).isNotEqualTo(401);
        assertThat(raw.get(PATH)).isNotNull();
    }

    @Test
    void refusesEveryPurgeWhenNoTokenIsSetAndSaysSoAtStartup(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext open = GatewayReplicas.start(memcached, "http://127.0.0.1:1")) {
            HttpResponse<String> answer = purge(open, PurgeToken.BEARER);

            assertThat(answer.statusCode()).isEqualTo(403);
            assertThat(answer.body()).contains("purges are off");
            assertThat(raw.get(PATH)).isNotNull();
            assertThat(output.getOut()).contains("/actuator/memcached are refused: set memcached.cache.purge-token");
        }
    }

    @Test
    void purgesWithoutATokenOnlyWhenASettingSaysSo(CapturedOutput output) throws Exception {
        try (ConfigurableApplicationContext open = GatewayReplicas.start(memcached, "http://127.0.0.1:1",
                "--memcached.cache.purge-unauthenticated=true")) {
            HttpResponse<String> answer = purge(open, null);

            assertThat(answer.statusCode()).isEqualTo(200);
            assertThat(raw.get(PATH)).isNull();
            assertThat(output.getOut()).contains("need no token (memcached.cache.purge-unauthenticated=true)");
        }
    }

    private static HttpResponse<String> purge(ConfigurableApplicationContext gateway, @Nullable String authorization)
            throws Exception {
        HttpRequest.Builder request = HttpRequest
            .newBuilder(URI.create(GatewayReplicas.managementUri(gateway) + "/actuator/memcached" + PATH))
            .timeout(Duration.ofSeconds(10))
            .DELETE();
        if (authorization != null) {
            request.header("Authorization", authorization);
        }
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static double purges(ConfigurableApplicationContext gateway, String status) {
        var counter = gateway.getBean(MeterRegistry.class)
            .find("memcached.cache.purges")
            .tags("by", "path", "mode", "hard", "status", status)
            .counter();
        return counter == null ? 0 : counter.count();
    }

}
