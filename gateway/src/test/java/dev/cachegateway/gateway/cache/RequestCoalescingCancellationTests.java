package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.support.CacheIntegrationTest;
import dev.cachegateway.gateway.support.RecordingBackend.Reply;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.test.context.TestPropertySource;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * A leader whose client goes away must free its waiters at once, not when the lock timeout (here far longer than
 * the test's patience) or its own backend call ends.
 */
@TestPropertySource(properties = "memcached.cache.lock-timeout=60s")
class RequestCoalescingCancellationTests extends CacheIntegrationTest {

    @Test
    void freesTheWaitersWhenTheLeadersClientDisconnects() {
        String path = "/api/v1/comments/1";
        backend.replyByCall(path, call -> Reply.json("{\"call\":" + call + "}", "public, max-age=60")
                .after(call == 1 ? Duration.ofSeconds(8) : Duration.ZERO));
        WebClient web = WebClient.create("http://localhost:" + port);

        web.get().uri(path).retrieve().bodyToMono(String.class).timeout(Duration.ofMillis(600))
                .onErrorResume(timeout -> Mono.empty()).subscribe();
        Awaitility.await("the leader at the backend").atMost(Duration.ofSeconds(5))
                .until(() -> backend.calls(path) == 1);
        List<String> waiters = Flux.range(0, 5)
                .flatMap(i -> web.get().uri(path).retrieve().bodyToMono(String.class))
                .collectList()
                .block(Duration.ofSeconds(5));

        assertThat(waiters).hasSize(5).allSatisfy(body -> assertThat(body).startsWith("{\"call\":"));
    }
}
