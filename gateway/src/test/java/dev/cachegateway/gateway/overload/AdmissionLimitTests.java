package dev.cachegateway.gateway.overload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.ThreadDump;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.annotation.DirtiesContext;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.test.context.TestPropertySource;
import org.springframework.test.web.reactive.server.WebTestClient;

/**
 * Two requests at a time at the door: a third gets a fast 503 with Retry-After; health is
 * never turned away. Set under the limits' earlier names, which are still read.
 */
@TestPropertySource(properties = { "gateway.overload.max-concurrent-requests=2", "gateway.overload.retry-after=3s" })
// Settings of its own make a gateway of its own, which no other class reuses.
@DirtiesContext
class AdmissionLimitTests extends CacheIntegrationTest {

    @LocalManagementPort
    int managementPort;

    @Autowired
    MeterRegistry meters;

    private HeldBackend held;

    @BeforeEach
    void fillTheDoor() {
        held = new HeldBackend(backend, port);
        String first = HeldBackend.freshPath("");
        String second = HeldBackend.freshPath("");
        held.hold(first);
        held.hold(second);
        await("both requests at the backend").atMost(Duration.ofSeconds(10))
            .until(() -> backend.calls(first) == 1 && backend.calls(second) == 1);
    }

    @AfterEach
    void openTheDoor() {
        held.close();
    }

    @Test
    void turnsAwayARequestPastTheLimitWithA503ThatSaysWhenToComeBack() {
        String path = HeldBackend.freshPath("");
        client.get()
            .uri(path)
            .exchange()
            .expectStatus()
            .isEqualTo(503)
            .expectHeader()
            .valueEquals("Retry-After", "3")
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo(503)
            .jsonPath("$.error")
            .isEqualTo("Service Unavailable")
            .jsonPath("$.path")
            .isEqualTo(path)
            .jsonPath("$.trace")
            .doesNotExist();

        assertThat(backend.calls(path)).isZero();
        assertThat(meters.get("gateway.overload.rejected").tag("limit", "max-concurrent-requests").counter().count())
            .isEqualTo(1);
    }

    @Test
    void neverTurnsAwayHealthOrProbes() {
        // Shorter than the backend calls are held, so that a probe waiting behind them
        // fails while they are still held, with the threads that keep it waiting in the
        // report.
        WebTestClient management = WebTestClient.bindToServer()
            .baseUrl("http://localhost:" + managementPort)
            .responseTimeout(Duration.ofSeconds(10))
            .build();

        for (String probe : List.of("/actuator/health", "/actuator/health/liveness", "/actuator/health/readiness")) {
            ThreadDump.onFailure(() -> management.get().uri(probe).exchange().expectStatus().isOk());
        }
    }

    @Test
    void takesRequestsAgainOnceThoseInFlightAreAnswered() {
        assertThat(held.release()).allSatisfy(answer -> assertThat(answer.statusCode()).isEqualTo(200));

        client.get().uri(HeldBackend.freshPath("")).exchange().expectStatus().isOk();
    }

}
