package dev.cachegateway.gateway.backend;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

class UnreachableBackendFilterTests extends CacheIntegrationTest {

    @Test
    void answersAnUnreachableBackendWithAJsonBadGateway() {
        client.get()
            .uri("/unreachable/thing")
            .exchange()
            .expectStatus()
            .isEqualTo(502)
            .expectHeader()
            .contentTypeCompatibleWith(MediaType.APPLICATION_JSON)
            .expectBody()
            .jsonPath("$.status")
            .isEqualTo(502)
            .jsonPath("$.error")
            .isEqualTo("Bad Gateway")
            .jsonPath("$.trace")
            .doesNotExist()
            .jsonPath("$.exception")
            .doesNotExist();
    }

    @Test
    void keepsServingHitsWhileTheBackendIsUnreachable() throws Exception {
        raw.set("/unreachable/cached", 0, 0, bytes("{\"cached\":true}"));

        client.get()
            .uri("/unreachable/cached")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT")
            .expectBody(String.class)
            .isEqualTo("{\"cached\":true}");
    }

}
