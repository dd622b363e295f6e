package dev.cachegateway.gateway.overload;

import java.time.Duration;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.web.server.ResponseStatusException;
import org.springframework.web.server.ServerWebExchange;

/**
 * A request turned away by a limit: a 503 with {@code Retry-After}, rendered by the
 * gateway's error handler as its other errors are (the JSON of a 502 or 504), and counted
 * in {@code gateway.overload.rejected} by limit.
 */
final class Rejections {

    /** Which limit turned a request away, as the meter's {@code limit} tag says it. */
    enum Limit {

        REQUESTS("max-concurrent-requests"), BACKEND_CALLS("max-concurrent-backend-calls");

        private final String tag;

        Limit(String tag) {
            this.tag = tag;
        }

    }

    private final String retryAfterSeconds;

    private final Counter[] rejected = new Counter[Limit.values().length];

    Rejections(Duration retryAfter, MeterRegistry registry) {
        this.retryAfterSeconds = Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000));
        for (Limit limit : Limit.values()) {
            rejected[limit.ordinal()] = Counter.builder("gateway.overload.rejected")
                .description("Requests answered 503 because a concurrency limit was reached")
                .tag("limit", limit.tag)
                .register(registry);
        }
    }

    /**
     * Turns the exchange's request away; the caller must not have written anything yet.
     */
    <T> Mono<T> reject(ServerWebExchange exchange, Limit limit) {
        rejected[limit.ordinal()].increment();
        exchange.getResponse().getHeaders().set(HttpHeaders.RETRY_AFTER, retryAfterSeconds);
        return Mono
            .error(new Overloaded(limit == Limit.REQUESTS ? "The gateway is overloaded" : "The backend is busy"));
    }

    /**
     * Without a stack trace: thrown in numbers exactly when the gateway has no CPU to
     * spare, always from here.
     */
    private static final class Overloaded extends ResponseStatusException {

        private static final long serialVersionUID = 1L;

        Overloaded(String reason) {
            super(HttpStatus.SERVICE_UNAVAILABLE, reason);
        }

        @Override
        public synchronized Throwable fillInStackTrace() {
            return this;
        }

    }

}
