package dev.cachegateway.gateway.cache.outcome;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeoutException;

import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import org.junit.jupiter.api.Test;

/**
 * A failed lookup says which side failed: memcached (timeout, circuit-open, error) or the
 * gateway itself.
 */
class CacheOutcomeTests {

    @Test
    void saysMemcachedTimedOut() {
        assertThat(failedWith(new TimeoutException("late"))).isEqualTo("memcached-gateway; fwd=miss; detail=timeout");
    }

    @Test
    void saysTheGatewayItselfWasPausedOrBehind() {
        assertThat(failedWith(new GatewayDelayException(1000)))
            .isEqualTo("memcached-gateway; fwd=miss; detail=gateway-delay");
    }

    @Test
    void saysTheCircuitWasOpen() {
        CallNotPermittedException open = CallNotPermittedException
            .createCallNotPermittedException(CircuitBreaker.ofDefaults("memcached"));

        assertThat(failedWith(open)).isEqualTo("memcached-gateway; fwd=miss; detail=circuit-open");
    }

    private static String failedWith(Throwable failure) {
        CacheOutcome outcome = CacheOutcome.detached();
        outcome.error(failure);
        assertThat(outcome.status()).isEqualTo(XCache.ERROR);
        return outcome.cacheStatus();
    }

}
