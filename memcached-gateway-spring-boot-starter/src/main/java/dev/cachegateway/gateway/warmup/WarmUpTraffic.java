package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import io.netty.channel.ChannelOption;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The warm-up's requests: the gateway's own address is asked for the warm-up routes in
 * turn, and for the paths like clients' twice each, once as a hit and once, with a query
 * string of its own, as a miss, a few at a time, until the time is up. The same Reactor
 * Netty client the gateway proxies with sends them, so its paths warm up too. Now and
 * then a request comes on a connection of its own, closed or reset after it, so that the
 * gateway accepts and closes connections, as it does when clients come and go.
 */
final class WarmUpTraffic {

    /**
     * A request that gets no answer in this time counts as failed, and makes room for the
     * next.
     */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

    private static final String FAILED = "failed";

    /**
     * Every this many requests, one comes on a connection of its own, which is closed or
     * reset after it.
     */
    static final int CLOSE_EVERY = 16;

    private WarmUpTraffic() {
    }

    /**
     * How many answers of each kind ("200 HIT", "200 -", "failed", ...) the requests got,
     * once {@code progress} finds them steady, or {@code longest} is up.
     */
    static Mono<Map<String, Long>> send(URI gateway, String token, List<String> paths, Duration longest,
            int concurrency, WarmUpProgress progress) {
        List<Ask> asks = asks(paths, concurrency);
        ConnectionProvider connections = ConnectionProvider.builder("gateway-warm-up")
            .maxConnections(concurrency)
            .build();
        HttpClient client = configured(HttpClient.create(connections), gateway, token);
        // Not pooled, rather than a pooled one asked to close: the pool could hand on a
        // connection the gateway is closing.
        HttpClient closing = configured(HttpClient.newConnection(), gateway, token);
        // Every second one of those ends with a reset rather than a close (no lingering:
        // RST, not FIN), as when a client gives up or a load tool stops: the gateway's
        // wait for the next request then fails, a path the JIT would otherwise first
        // meet after ready, and recompile the read path for.
        HttpClient resetting = closing.option(ChannelOption.SO_LINGER, 0);
        return Mono.defer(() -> {
            // Counted as they come: the seconds below end where the time is up, and the
            // answers of a second cut short would go uncounted (all, under a second).
            Map<String, Long> counted = new ConcurrentHashMap<>();
            return Flux.range(0, Integer.MAX_VALUE)
                .flatMap(index -> answer(clientOf(index, client, closing, resetting),
                        asks.get(index % asks.size()).uri(index)), concurrency)
                .doOnNext(answer -> counted.merge(answer, 1L, Long::sum))
                .buffer(Duration.ofSeconds(1))
                .takeUntil(second -> progress
                    .steadyAfter(second.stream().filter(answer -> !FAILED.equals(answer)).count()))
                .take(longest)
                .then(Mono.fromSupplier(() -> Map.copyOf(counted)));
        }).doFinally(signal -> connections.dispose());
    }

    /**
     * What is asked for in turn: the warm-up routes, the expiring one {@code concurrency}
     * times in a row, so that its requests come together, then each of {@code paths} as a
     * hit and as a miss.
     */
    static List<Ask> asks(List<String> paths, int concurrency) {
        List<Ask> asks = new ArrayList<>();
        for (String path : WarmUpRoutes.PATHS) {
            int times = path.endsWith(WarmUpRoutes.EXPIRING) ? concurrency : 1;
            for (int time = 0; time < times; time++) {
                asks.add(new Ask(path, path.endsWith(WarmUpRoutes.MISS)));
            }
        }
        for (String path : paths) {
            asks.add(new Ask(path, false));
            asks.add(new Ask(path, true));
        }
        return List.copyOf(asks);
    }

    // Every CLOSE_EVERY-th request comes on a connection of its own, closed or reset.
    private static HttpClient clientOf(int index, HttpClient pooled, HttpClient closing, HttpClient resetting) {
        if (index % CLOSE_EVERY != CLOSE_EVERY - 1) {
            return pooled;
        }
        return (index / CLOSE_EVERY) % 2 == 0 ? closing : resetting;
    }

    private static HttpClient configured(HttpClient client, URI gateway, String token) {
        return client.baseUrl(gateway.toString())
            .headers(headers -> headers.set(WarmUpRoutes.TOKEN_HEADER, token))
            .responseTimeout(ANSWER_TIMEOUT);
    }

    private static Mono<String> answer(HttpClient client, String path) {
        return client.get()
            .uri(path)
            .responseSingle((response,
                    body) -> body.then(Mono.fromSupplier(
                            () -> response.status().code() + " " + response.responseHeaders().get("X-Cache", "-"))))
            .onErrorReturn(FAILED);
    }

    /**
     * A path to ask for; a fresh one gets a query string of its own, so that each request
     * makes a new key, and misses.
     */
    record Ask(String path, boolean fresh) {

        String uri(int index) {
            return fresh ? path + (path.contains("?") ? "&" : "?") + index : path;
        }

    }

}
