package dev.cachegateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * Stopping the gateway lets a request in flight finish. The backend takes 5 s, longer
 * than the 3 s that Reactor Netty grants requests on an immediate stop, so only a
 * graceful shutdown answers it.
 */
@Testcontainers
class GracefulShutdownTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final RecordingBackend backend = RecordingBackend.startQuietly();

    @AfterEach
    void stopBackend() {
        backend.close();
    }

    @Test
    void finishesARequestInFlightBeforeItStops() throws Exception {
        backend.reply("/api/v1/comments/1", Reply.json("{\"slow\":true}", "no-store").after(Duration.ofSeconds(5)));
        ConfigurableApplicationContext gateway = new SpringApplicationBuilder(GatewayApplication.class).run(
                "--server.port=0", "--management.server.port=0", "--comments-service.uri=" + backend.uri(),
                "--memcached.servers=" + MemcachedContainer.address(memcached));
        int port = ((WebServerApplicationContext) gateway).getWebServer().getPort();

        CompletableFuture<HttpResponse<String>> inFlight = HttpClient.newHttpClient()
            .sendAsync(HttpRequest.newBuilder(URI.create("http://localhost:" + port + "/api/v1/comments/1")).build(),
                    HttpResponse.BodyHandlers.ofString());
        Awaitility.await("the request at the backend")
            .atMost(Duration.ofSeconds(10))
            .until(() -> backend.calls("/api/v1/comments/1") > 0);
        gateway.close();

        Awaitility.await("the answer to the request in flight").atMost(Duration.ofSeconds(10)).until(inFlight::isDone);
        HttpResponse<String> response = inFlight.join();
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo("{\"slow\":true}");
        assertThat(gateway.isActive()).isFalse();
    }

}
