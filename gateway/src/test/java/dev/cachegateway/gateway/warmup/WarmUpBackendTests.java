package dev.cachegateway.gateway.warmup;

import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up's backend answers as real backends do, and as differently as they do: with
 * and without a reason phrase, with a date and tags, fresh for a minute or a second, and
 * now and then closing its connection.
 */
class WarmUpBackendTests {

    private static final Duration DEADLINE = Duration.ofSeconds(10);

    private final WarmUpBackend backend = WarmUpBackend.start(Optional.of("Surrogate-Key"));

    private final ConnectionProvider connections = ConnectionProvider.create("warm-up-backend-test", 1);

    private final AtomicInteger opened = new AtomicInteger();

    private final HttpClient client = HttpClient.create(connections)
        .baseUrl(backend.uri().toString())
        .doOnChannelInit((observer, channel, address) -> opened.incrementAndGet());

    @AfterEach
    void stop() {
        connections.dispose();
        backend.close();
    }

    @Test
    void answersWithAndWithoutAReasonPhraseWithADateAndTags() {
        List<String> answers = Flux.range(0, 4)
            .concatMap(index -> client.get()
                .uri(WarmUpRoutes.PREFIX + WarmUpRoutes.HIT)
                .responseSingle((response, body) -> body.asString()
                    .map(comment -> response.status().code() + " '" + response.status().reasonPhrase() + "' "
                            + response.responseHeaders().get("Cache-Control") + " "
                            + response.responseHeaders().get("Surrogate-Key") + " "
                            + response.responseHeaders().contains("Date"))))
            .collectList()
            .block(DEADLINE);

        assertThat(answers).contains("200 'OK' public, max-age=60 " + WarmUpBackend.TAGS + " true",
                "200 '' public, max-age=60 " + WarmUpBackend.TAGS + " true");
    }

    @Test
    void keepsAMissFreshForTenSecondsAndLeavesThePassUncached() {
        assertThat(cacheControl(WarmUpRoutes.PREFIX + WarmUpRoutes.MISS + "?1")).isEqualTo("public, max-age=10");
        assertThat(cacheControl("/api/v1/comments/1?2")).isEqualTo("public, max-age=10");
        assertThat(cacheControl(WarmUpRoutes.PREFIX + WarmUpRoutes.PASS)).isEqualTo("no-store");
    }

    @Test
    void keepsTheExpiringItemFreshForASecond() {
        assertThat(cacheControl(WarmUpRoutes.PREFIX + WarmUpRoutes.EXPIRING)).isEqualTo("public, max-age=1");
    }

    // A mirror asks for a configured route's path, which may end as the warm-up's own do.
    @Test
    void keepsAMirrorsHitFreshForAMinuteWhateverItsPathEndsWith() {
        assertThat(cacheControl("/api/v1/bypass")).isEqualTo("public, max-age=60");
        assertThat(cacheControl("/api/v1/offers/expiring")).isEqualTo("public, max-age=60");
    }

    @Test
    void closesAConnectionNowAndThen() {
        Flux.range(0, 2 * WarmUpBackend.CLOSE_EVERY + 1)
            .concatMap(index -> client.get().uri(WarmUpRoutes.PREFIX + WarmUpRoutes.HIT).responseContent().then())
            .blockLast(DEADLINE);

        // One connection at a time: every one it closed made the client open another.
        assertThat(opened).hasValue(3);
    }

    private String cacheControl(String uri) {
        return client.get()
            .uri(uri)
            .responseSingle((response, body) -> body.then()
                .thenReturn(String.valueOf(response.responseHeaders().get("Cache-Control"))))
            .block(DEADLINE);
    }

}
