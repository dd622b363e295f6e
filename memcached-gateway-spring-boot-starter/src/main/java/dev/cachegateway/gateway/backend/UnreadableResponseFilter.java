package dev.cachegateway.gateway.backend;

import java.io.IOException;

import dev.cachegateway.gateway.logging.BurstLog;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.filter.GatewayFilterChain;
import org.springframework.cloud.gateway.filter.GlobalFilter;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * A backend answer whose head cannot be read (a broken status line, invalid framing
 * headers, headers too large) is a 502 Bad Gateway, as nginx answers "upstream sent
 * invalid header". Left alone, Netty's decoding error would be a 500 with a stack trace
 * in the log. It sits just outside the retry, so it sees only what the backend call
 * failed with; I/O failures are {@link UnreachableBackendFilter}'s.
 */
class UnreadableResponseFilter implements GlobalFilter, Ordered {

    private static final BurstLog failures = BurstLog.of(UnreadableResponseFilter.class);

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, GatewayFilterChain chain) {
        return chain.filter(exchange)
            .onErrorMap(failure -> !(failure instanceof IOException || failure instanceof ResponseStatusException),
                    failure -> {
                        failures.warn("Backend answer unreadable, answering 502", failure);
                        return new ResponseStatusException(HttpStatus.BAD_GATEWAY,
                                "The backend's answer could not be read", failure);
                    });
    }

    @Override
    public int getOrder() {
        return ReusedConnectionRetryFilter.ORDER - 1;
    }

}
