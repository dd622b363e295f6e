package dev.cachegateway.gateway.cache.miss;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.core.Ordered;
import org.springframework.http.HttpStatusCode;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * What the gateway saw of each request that carries a {@link #HEADER}: when it reached
 * the gateway's first web filter, and how and when the gateway's handling of it ended, so
 * that a request a client reports lost can be told apart from one the gateway never got,
 * one it still holds, and one it answered.
 */
class RequestsSeen implements WebFilter, Ordered {

    static final String HEADER = "X-Request-Id";

    private final Map<String, Seen> seen = new ConcurrentHashMap<>();

    private static final class Seen {

        final long arrivedAt = System.nanoTime();

        volatile long endedAt;

        volatile String end;

    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        String id = exchange.getRequest().getHeaders().getFirst(HEADER);
        if (id == null) {
            return chain.filter(exchange);
        }
        Seen request = new Seen();
        seen.put(id, request);
        return chain.filter(exchange).doFinally(signal -> {
            request.end = ended(exchange, signal);
            request.endedAt = System.nanoTime();
        });
    }

    private static String ended(ServerWebExchange exchange, SignalType signal) {
        HttpStatusCode status = exchange.getResponse().getStatusCode();
        return signal + ", status " + (status != null ? status.value() : "none") + ", "
                + (exchange.getResponse().isCommitted() ? "committed" : "not committed") + ", X-Cache "
                + exchange.getResponse().getHeaders().getFirst("X-Cache");
    }

    /**
     * What the gateway saw of request {@code id}, in milliseconds since {@code since}, by
     * System.nanoTime().
     */
    String describe(String id, long since) {
        Seen request = seen.get(id);
        if (request == null) {
            return "the gateway never saw it";
        }
        String arrived = "it reached the gateway at +" + millis(request.arrivedAt - since) + " ms";
        return request.end == null ? arrived + " and the gateway has not finished it"
                : arrived + ", which ended it at +" + millis(request.endedAt - since) + " ms: " + request.end;
    }

    /** Forgets every request seen so far. */
    void clear() {
        seen.clear();
    }

    private static long millis(long nanos) {
        return nanos / 1_000_000;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

}
