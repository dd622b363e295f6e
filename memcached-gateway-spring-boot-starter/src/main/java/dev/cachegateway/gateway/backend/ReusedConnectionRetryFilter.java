package dev.cachegateway.gateway.backend;

import dev.cachegateway.gateway.logging.BurstLog;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.cloud.gateway.filter.NettyRoutingFilter;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * Sends a GET or HEAD again, once, over a new connection when the pooled connection it
 * went over failed before the answer's head arrived: the backend closed it as it was
 * reused (its keep-alive timeout raced the request), or it still held bytes of an earlier
 * answer. nginx does the same for a cached upstream connection. Reactor Netty retries by
 * itself only when the request had not been sent yet; SCG's Retry filter would retry any
 * failure on every route and buffer every request body. Other methods are never sent
 * twice.
 */
class ReusedConnectionRetryFilter implements GlobalFilter, Ordered {

    /** Before the routing filters, so that only the backend call is repeated. */
    static final int ORDER = NettyRoutingFilter.ORDER - 10;

    private static final BurstLog retries = BurstLog.of(ReusedConnectionRetryFilter.class);

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        if (!isRepeatable(exchange.getRequest())) {
            return chain.filter(exchange);
        }
        Attempt first = new Attempt();
        return chain.filter(exchange)
            .contextWrite(Context.of(Attempt.class, first))
            .onErrorResume(failure -> first.reused && !(failure instanceof ResponseStatusException)
                    && !exchange.getResponse().isCommitted(), failure -> {
                        retries.warn("A reused backend connection failed before the answer, sending again", failure);
                        exchange.getAttributes().remove(ServerWebExchangeUtils.GATEWAY_ALREADY_ROUTED_ATTR);
                        return chain.filter(exchange);
                    });
    }

    // Only a request without a body: its body was read on the first try and cannot be
    // read again.
    private static boolean isRepeatable(ServerHttpRequest request) {
        HttpMethod method = request.getMethod();
        HttpHeaders headers = request.getHeaders();
        return (HttpMethod.GET.equals(method) || HttpMethod.HEAD.equals(method))
                && !headers.containsHeader(HttpHeaders.TRANSFER_ENCODING) && headers.getContentLength() <= 0;
    }

    @Override
    public int getOrder() {
        return ORDER;
    }

    /**
     * One try of a request: whether it went over a connection that had served requests
     * before.
     */
    static final class Attempt {

        private volatile boolean reused;

        /**
         * Notes on the attempt in {@code context}, if there is one, whether its
         * connection was reused.
         */
        static void note(ContextView context, boolean reused) {
            context.<Attempt>getOrEmpty(Attempt.class).ifPresent(attempt -> attempt.reused = reused);
        }

    }

}
