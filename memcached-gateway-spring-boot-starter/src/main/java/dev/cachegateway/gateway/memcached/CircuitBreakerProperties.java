package dev.cachegateway.gateway.memcached;

import java.time.Duration;

/**
 * The circuit breaker around every memcached operation. While it is open, operations fail
 * at once without reaching memcached, so an outage adds no latency; it lets a few through
 * again after a pause.
 */
public class CircuitBreakerProperties {

    /** The share of failed operations, in percent, at which the breaker opens. */
    private float failureRateThreshold = 50;

    /** How many of the latest operations the failure rate is taken over. */
    private int slidingWindowSize = 20;

    /** How many operations must have been seen before the failure rate counts. */
    private int minimumNumberOfCalls = 10;

    /** How long the breaker stays open before it lets trial operations through. */
    private Duration waitInOpenState = Duration.ofSeconds(2);

    /** How many trial operations decide whether the breaker closes again. */
    private int permittedCallsInHalfOpenState = 3;

    public float getFailureRateThreshold() {
        return failureRateThreshold;
    }

    public void setFailureRateThreshold(float failureRateThreshold) {
        this.failureRateThreshold = failureRateThreshold;
    }

    public int getSlidingWindowSize() {
        return slidingWindowSize;
    }

    public void setSlidingWindowSize(int slidingWindowSize) {
        this.slidingWindowSize = slidingWindowSize;
    }

    public int getMinimumNumberOfCalls() {
        return minimumNumberOfCalls;
    }

    public void setMinimumNumberOfCalls(int minimumNumberOfCalls) {
        this.minimumNumberOfCalls = minimumNumberOfCalls;
    }

    public Duration getWaitInOpenState() {
        return waitInOpenState;
    }

    public void setWaitInOpenState(Duration waitInOpenState) {
        this.waitInOpenState = waitInOpenState;
    }

    public int getPermittedCallsInHalfOpenState() {
        return permittedCallsInHalfOpenState;
    }

    public void setPermittedCallsInHalfOpenState(int permittedCallsInHalfOpenState) {
        this.permittedCallsInHalfOpenState = permittedCallsInHalfOpenState;
    }

}
