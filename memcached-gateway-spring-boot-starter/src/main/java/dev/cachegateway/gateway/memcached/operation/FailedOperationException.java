package dev.cachegateway.gateway.memcached.operation;

/**
 * An operation that ended without an answer: spymemcached cancelled it, because its
 * connection was lost or its server is down, or it was merged into a multi-get that
 * failed. Without a stack trace: a lost connection fails every operation waiting on it at
 * once, and the cause is always the same.
 */
public final class FailedOperationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public FailedOperationException(String why) {
        super("memcached operation ended without an answer: " + why, null, false, false);
    }

}
