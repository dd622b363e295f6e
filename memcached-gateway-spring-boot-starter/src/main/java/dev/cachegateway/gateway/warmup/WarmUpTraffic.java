package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;

/**
 * The warm-up's requests: the gateway's own address is asked for the warm-up routes in
 * turn, a few at a time, until the time is up. The same Reactor Netty client the gateway
 * proxies with sends them, so its paths warm up too.
 */
final class WarmUpTraffic {

    /**
     * A request that gets no answer in this time counts as failed, and makes room for the
     * next.
     */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(2);

    private static final String FAILED = "failed";

    private WarmUpTraffic() {
    }

    /**
     * How many answers of each kind ("200 HIT", "200 -", "failed", ...) the requests got,
     * once {@code progress} finds them steady, or {@code longest} is up.
     */
    static Mono<Map<String, Long>> send(URI gateway, String token, Duration longest, int concurrency,
            WarmUpProgress progress) {
        ConnectionProvider connections = ConnectionProvider.builder("gateway-warm-up")
            .maxConnections(concurrency)
            .build();
        HttpClient client = HttpClient.create(connections)
            .baseUrl(gateway.toString())
            .headers(headers -> headers.set(WarmUpRoutes.TOKEN_HEADER, token))
            .responseTimeout(ANSWER_TIMEOUT);
        return Flux.range(0, Integer.MAX_VALUE)
            .flatMap(index -> answer(client, path(index)), concurrency)
            .buffer(Duration.ofSeconds(1))
            .takeUntil(second -> progress.steadyAfter(second.stream().filter(answer -> !FAILED.equals(answer)).count()))
            .take(longest)
            .flatMapIterable(Function.identity())
            .collect(Collectors.groupingBy(Function.identity(), TreeMap::new, Collectors.counting()))
            .map(Map::copyOf)
            .doFinally(signal -> connections.dispose());
    }

    /**
     * The routes in turn; on the miss route a query string of its own, so that each
     * request makes a new key.
     */
    private static String path(int index) {
        String path = WarmUpRoutes.PATHS.get(index % WarmUpRoutes.PATHS.size());
        return path.endsWith(WarmUpRoutes.MISS) ? path + "?" + index : path;
    }

    private static Mono<String> answer(HttpClient client, String path) {
        return client.get()
            .uri(path)
            .responseSingle((response,
                    body) -> body.then(Mono.fromSupplier(
                            () -> response.status().code() + " " + response.responseHeaders().get("X-Cache", "-"))))
            .onErrorReturn(FAILED);
    }

}
