package dev.cachegateway.gateway.backend;

import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;

import dev.cachegateway.gateway.logging.BurstLog;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.PrematureCloseException;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * A backend that cannot be reached, or that hangs up or resets the connection mid-answer,
 * is a 502 Bad Gateway, as nginx answers it. Left alone it would be a 500 with a stack
 * trace in the log for every request while the backend is down.
 */
class UnreachableBackendFilter implements GlobalFilter, Ordered {

    private static final BurstLog failures = BurstLog.of(UnreachableBackendFilter.class);

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        return chain.filter(exchange)
            .onErrorMap(failure -> isUnreachable(failure) || resetBeforeTheAnswer(failure, exchange), failure -> {
                failures.warn("Backend unreachable, answering 502", failure);
                // Logged here, and kept out of the answer's cause: WebFlux reads a cause
                // that says "connection reset by peer" as the client gone, and would
                // answer the 502 without its JSON.
                return new ResponseStatusException(HttpStatus.BAD_GATEWAY, "The backend could not be reached");
            });
    }

    private static boolean isUnreachable(Throwable failure) {
        return failure instanceof ConnectException || failure instanceof UnknownHostException
                || failure instanceof UnresolvedAddressException || failure instanceof PrematureCloseException;
    }

    // A connection the backend reset (it crashed, or dropped its connections as it
    // restarted) with a request that cannot be sent again, a write. Before the answer
    // committed, an I/O failure is the backend's; after, it may be the client's going
    // away, which WebFlux tells by its own exception and must still see.
    private static boolean resetBeforeTheAnswer(Throwable failure, ServerWebExchange exchange) {
        return failure instanceof IOException && !exchange.getResponse().isCommitted();
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }

}
