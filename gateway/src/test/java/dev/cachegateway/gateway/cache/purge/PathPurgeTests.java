package dev.cachegateway.gateway.cache.purge;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.GatewayAtRest;
import dev.cachegateway.demo.support.PurgeToken;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.context.ApplicationContext;
import org.springframework.http.ResponseEntity;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.reactive.server.WebTestClient.ResponseSpec;

/**
 * A purge of a path, through the management endpoint of a gateway in front of a real
 * memcached and backend: it takes out every format the path is stored in, and a fetch
 * that was under way when it came does not store its older answer after it, as after a
 * write.
 */
class PathPurgeTests extends CacheIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Autowired
    ApplicationContext gateway;

    WebTestClient management;

    @BeforeEach
    void managementClient() {
        management = WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + managementPort)
            .responseTimeout(Duration.ofSeconds(30))
            .build();
    }

    @Test
    void aFetchUnderWayWhenThePurgeCameDoesNotStoreItsAnswerAfterIt() throws Exception {
        String path = "/api/v1/comments/41";
        backend.reply(path, Reply.json("{\"id\":41}", "public, max-age=60").after(Duration.ofMillis(1500)));
        CompletableFuture<ResponseEntity<byte[]>> fetching = new ConcurrentGets().get("http://localhost:" + port + path)
            .toFuture();
        await().atMost(Duration.ofSeconds(5)).until(() -> backend.calls(path) == 1);

        purge(path).expectStatus().isOk();

        assertThat(fetching).as("the fetch, when the purge was answered").isNotDone();
        assertThat(fetching.get(10, TimeUnit.SECONDS).getBody()).asString(StandardCharsets.UTF_8)
            .isEqualTo("{\"id\":41}");
        GatewayAtRest.waitFor(gateway);
        assertThat(raw.get(path)).as("the answer fetched before the purge").isNull();
    }

    @Test
    void purgesTheBodyItemAndTheWholeAnswerItemOfThePath() throws Exception {
        String path = "/api/v1/whole/comments/42";
        client.get().uri(path).exchange().expectStatus().isOk();
        awaitStored("http:" + path);
        // As a body route, or nginx, would have stored the path's body.
        raw.set(path, 0, 60, bytes("{\"body\":1}"));

        purge(path).expectStatus()
            .isOk()
            .expectBody()
            .jsonPath("$.key")
            .isEqualTo(path)
            .jsonPath("$.keys.length()")
            .isEqualTo(2)
            .jsonPath("$.deleted")
            .isEqualTo(true);

        assertThat(raw.get(path)).isNull();
        assertThat(raw.get("http:" + path)).isNull();
        client.get().uri(path).exchange().expectHeader().valueEquals("X-Cache", "MISS");
    }

    private ResponseSpec purge(String path) {
        return management.delete()
            .uri("/actuator/memcached" + path)
            .header("Authorization", PurgeToken.BEARER)
            .exchange();
    }

}
