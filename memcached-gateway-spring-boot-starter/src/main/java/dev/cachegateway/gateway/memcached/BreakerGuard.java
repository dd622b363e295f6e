package dev.cachegateway.gateway.memcached;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import reactor.core.publisher.Mono;

/**
 * An operation behind its server's circuit breaker, whose outcome counts only in the
 * spell of the breaker that let it through. Resilience4j's own operator records an
 * outcome in whatever state the breaker is in when the outcome arrives. After a stall,
 * the failures of operations let through before the breaker opened reached it seconds
 * late, just after it had gone half-open, and took its three trial places: it opened
 * again 1 ms later on evidence older than its own opening, sending every key to the
 * backend for another wait. Resilience4j gives each closed and each half-open spell
 * metrics of their own (an open spell keeps those of the spell it ended), so an outcome
 * whose spell has ended is not counted, and a cancelled operation gives back only a
 * permission of the spell it took it from.
 */
final class BreakerGuard {

    private BreakerGuard() {
    }

    /**
     * {@code operation} if {@code breaker} lets it through when subscribed to, else
     * {@link CallNotPermittedException}.
     */
    static <T> Mono<T> guard(CircuitBreaker breaker, Mono<T> operation) {
        return Mono.defer(() -> {
            if (!breaker.tryAcquirePermission()) {
                return Mono.error(CallNotPermittedException.createCallNotPermittedException(breaker));
            }
            // Taken after the permission, so that it is the spell that granted it or a
            // later one, never an earlier one whose trial places it did not take.
            CircuitBreaker.Metrics spell = breaker.getMetrics();
            long start = breaker.getCurrentTimestamp();
            return operation.doOnSuccess(value -> {
                if (breaker.getMetrics() != spell) {
                    return;
                }
                long duration = breaker.getCurrentTimestamp() - start;
                if (value == null) {
                    breaker.onSuccess(duration, breaker.getTimestampUnit());
                }
                else {
                    breaker.onResult(duration, breaker.getTimestampUnit(), value);
                }
            }).doOnError(error -> {
                if (breaker.getMetrics() == spell) {
                    breaker.onError(breaker.getCurrentTimestamp() - start, breaker.getTimestampUnit(), error);
                }
            }).doOnCancel(() -> {
                if (breaker.getMetrics() == spell) {
                    breaker.releasePermission();
                }
            });
        });
    }

}
