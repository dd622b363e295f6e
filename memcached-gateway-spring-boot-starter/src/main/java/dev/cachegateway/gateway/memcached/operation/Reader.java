package dev.cachegateway.gateway.memcached.operation;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Stalls;

/** Where an operation's {@link Reading} comes from: the connection it went out on. */
@FunctionalInterface
public interface Reader {

    /** For an operation whose connection cannot say. */
    Reader UNKNOWN = (now, stalls) -> Reading.UNKNOWN;

    /**
     * The reading at {@code now}; {@code stalls} tell a reader that waited from one the
     * whole gateway stopped.
     */
    Reading reading(long now, Stalls stalls);

}
