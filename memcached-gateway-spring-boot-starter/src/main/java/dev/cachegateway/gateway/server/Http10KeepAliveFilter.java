package dev.cachegateway.gateway.server;

import io.netty.handler.codec.http.HttpVersion;
import reactor.core.publisher.Mono;
import reactor.netty.http.server.HttpServerRequest;

import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Keeps the connection of an HTTP/1.0 client that asks for keep-alive (ab -k, health
 * checkers, old proxies). An HTTP/1.0 connection is persistent only if the answer says
 * {@code Connection: keep-alive}; without it Reactor Netty either closes after every
 * answer or, on a proxied answer, keeps the connection open while the client waits for it
 * to close.
 */
public final class Http10KeepAliveFilter implements WebFilter, Ordered {

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        markKeepAlive(exchange.getRequest(), exchange.getResponse());
        return chain.filter(exchange);
    }

    /**
     * What this filter does, for a request answered where WebFilters do not run; before
     * anything else registers for the commit, as this filter runs first.
     */
    public static void markKeepAlive(ServerHttpRequest request, ServerHttpResponse response) {
        if (asksForKeepAlive(request)) {
            response.beforeCommit(() -> {
                response.getHeaders().set(HttpHeaders.CONNECTION, "keep-alive");
                return Mono.empty();
            });
        }
    }

    private static boolean asksForKeepAlive(ServerHttpRequest request) {
        Object nativeRequest = ServerHttpRequestDecorator.getNativeRequest(request);
        return nativeRequest instanceof HttpServerRequest netty && HttpVersion.HTTP_1_0.equals(netty.version())
                && "keep-alive".equalsIgnoreCase(request.getHeaders().getFirst(HttpHeaders.CONNECTION));
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

    /**
     * Spring's filter chain names each filter in a checkpoint on every request, by this:
     * a constant spares each request building {@code Object}'s name and hash.
     */
    @Override
    public String toString() {
        return "Http10KeepAliveFilter";
    }

}
