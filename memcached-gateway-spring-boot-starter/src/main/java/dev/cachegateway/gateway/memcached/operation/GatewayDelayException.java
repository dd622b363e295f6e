package dev.cachegateway.gateway.memcached.operation;

/**
 * An operation given up on because the gateway, not memcached, used its time: paused or
 * too busy to hear the answer. It says nothing against memcached, so no circuit breaker
 * counts it. Without a stack trace: it is thrown in numbers exactly when the gateway is
 * short of CPU, and its cause is always the same.
 */
public final class GatewayDelayException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public GatewayDelayException(long waitedMillis) {
        super("the gateway was paused or behind for most of " + waitedMillis + " ms; memcached is not to blame", null,
                false, false);
    }

}
