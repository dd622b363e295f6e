package dev.cachegateway.gateway.warmup;

import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The warm-up's requests, sent to a server that stands in for the gateway: the warm-up
 * routes and the paths like clients', as hits and as misses, with the token, over
 * connections that now and then close or are reset.
 */
class WarmUpTrafficTests {

    private static final int CONCURRENCY = 2;

    private final Queue<String> asked = new ConcurrentLinkedQueue<>();

    private final AtomicInteger connections = new AtomicInteger();

    private final AtomicInteger resets = new AtomicInteger();

    /** The resets counted before the last request came, not by the cut at the end. */
    private final AtomicInteger resetsBeforeARequest = new AtomicInteger();

    private final DisposableServer gateway = HttpServer.create()
        .host("127.0.0.1")
        .port(0)
        .doOnConnection(connection -> connections.incrementAndGet())
        // First in the pipeline, where a failed read is told before anything else.
        .doOnChannelInit((observer, channel, address) -> channel.pipeline()
            .addFirst("reset-counter", new ChannelInboundHandlerAdapter() {
                @Override
                public void exceptionCaught(ChannelHandlerContext context, Throwable cause) {
                    if (cause instanceof IOException && String.valueOf(cause.getMessage()).contains("reset")) {
                        resets.incrementAndGet();
                    }
                    context.fireExceptionCaught(cause);
                }
            }))
        .handle((request, response) -> {
            asked.add(request.uri() + " " + request.requestHeaders().get(WarmUpRoutes.TOKEN_HEADER));
            resetsBeforeARequest.accumulateAndGet(resets.get(), Math::max);
            return response.sendString(Mono.just("answer"));
        })
        .bindNow();

    @AfterEach
    void stop() {
        gateway.disposeNow();
    }

    @Test
    void asksForItsRoutesAndEachPathAsAHitAndAsAMissWithTheToken() {
        send(List.of("/api/v1/comments/1"));

        assertThat(asked)
            .contains(WarmUpRoutes.PREFIX + WarmUpRoutes.HIT + " token",
                    WarmUpRoutes.PREFIX + WarmUpRoutes.PASS + " token",
                    WarmUpRoutes.PREFIX + WarmUpRoutes.EXPIRING + " token", "/api/v1/comments/1 token")
            .anyMatch(line -> line.matches("/\\.memcached-gateway/warm-up/miss\\?\\d+ token"))
            .anyMatch(line -> line.matches("/api/v1/comments/1\\?\\d+ token"))
            .allMatch(line -> line.endsWith(" token"));
    }

    @Test
    void closesAConnectionNowAndThen() {
        send(List.of());

        assertThat(asked).hasSizeGreaterThan(4 * WarmUpTraffic.CLOSE_EVERY);
        // Without the closing requests, the few connections of the start would serve all.
        assertThat(connections.get()).isGreaterThan(CONCURRENCY + 2);
    }

    @Test
    void resetsAConnectionNowAndThen() {
        send(List.of());

        // Reset rather than closed, while the requests go on: the server's wait for the
        // next request on it fails. The requests cut off by the end reset theirs too.
        assertThat(resetsBeforeARequest).hasPositiveValue();
    }

    @Test
    void asksForTheExpiringItemAsManyTimesInARowAsItSendsAtOnce() {
        List<String> uris = WarmUpTraffic.asks(List.of("/api/v1/comments/1"), 3)
            .stream()
            .map(ask -> ask.uri(0))
            .toList();

        String expiring = WarmUpRoutes.PREFIX + WarmUpRoutes.EXPIRING;
        int first = uris.indexOf(expiring);
        assertThat(uris.subList(first, first + 3)).containsOnly(expiring);
        assertThat(uris).filteredOn(expiring::equals).hasSize(3);
    }

    @Test
    void countsTheAnswersOfAWarmUpShorterThanASecond() {
        Map<String, Long> answers = send(List.of("/api/v1/comments/1"), Duration.ofMillis(700));

        // Only the requests still in flight when the time is up go unanswered.
        long answered = answers.values().stream().mapToLong(Long::longValue).sum();
        assertThat(answered).isPositive().isGreaterThanOrEqualTo(asked.size() - CONCURRENCY);
    }

    @Test
    void aFreshAskGetsAQueryStringOfItsOwn() {
        assertThat(new WarmUpTraffic.Ask("/a", true).uri(7)).isEqualTo("/a?7");
        assertThat(new WarmUpTraffic.Ask("/a?b=1", true).uri(7)).isEqualTo("/a?b=1&7");
        assertThat(new WarmUpTraffic.Ask("/a", false).uri(7)).isEqualTo("/a");
    }

    // Two and a half seconds of requests; the progress is never steady so soon.
    private void send(List<String> paths) {
        send(paths, Duration.ofMillis(2500));
    }

    private Map<String, Long> send(List<String> paths, Duration duration) {
        Map<String, Long> answers = WarmUpTraffic
            .send(URI.create("http://127.0.0.1:" + gateway.port()), "token", paths, duration, CONCURRENCY,
                    new WarmUpProgress(() -> 0))
            .block(Duration.ofSeconds(10));

        assertThat(answers).isNotEmpty().doesNotContainKey("failed");
        return answers;
    }

}
