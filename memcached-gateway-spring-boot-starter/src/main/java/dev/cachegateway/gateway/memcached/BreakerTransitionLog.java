package dev.cachegateway.gateway.memcached;

import java.util.concurrent.atomic.AtomicReference;

import dev.cachegateway.gateway.memcached.pool.ServerAddress;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Logs a memcached server's breaker as it moves, and with an opening the failure that
 * tipped it: a breaker that opens sends every key of its server to the backend, and the
 * first thing an operator asks is whether memcached failed or the gateway was too busy to
 * hear it (a timeout says which, see
 * {@link dev.cachegateway.gateway.memcached.operation.DeadlineJudge}).
 */
final class BreakerTransitionLog {

    // The category the messages have always had, so that logging settings and searches
    // still find them.
    private static final Logger logger = LoggerFactory.getLogger(MemcachedClientConfiguration.class);

    private BreakerTransitionLog() {
    }

    static void follow(CircuitBreaker breaker, ServerAddress server) {
        // Written on failures only, which a healthy server does not have; taken at each
        // transition, so that an opening names a failure since the one before.
        AtomicReference<@Nullable Throwable> lastFailure = new AtomicReference<>();
        breaker.getEventPublisher().onError(event -> lastFailure.set(event.getThrowable())).onStateTransition(event -> {
            State to = event.getStateTransition().getToState();
            logger.warn("memcached {} circuit breaker {} -> {}: {}", server, event.getStateTransition().getFromState(),
                    to, describe(to, lastFailure.getAndSet(null)));
        });
    }

    private static String describe(State to, @Nullable Throwable lastFailure) {
        return switch (to) {
            // No failure when the breaker was opened by hand.
            case OPEN -> "it keeps failing" + (lastFailure != null ? " (the last failure: " + lastFailure + ")" : "")
                    + "; its keys go straight to the backend";
            case HALF_OPEN -> "trying it again";
            case CLOSED -> "it answers again; lookups of its keys resume";
            default -> "";
        };
    }

}
