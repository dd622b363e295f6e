package dev.cachegateway.gateway.memcached.operation;

/**
 * What an operation's connection says of memcached, for an operation not yet answered.
 * memcached answers in order on each connection, so the oldest operation still waiting
 * there speaks for every later one.
 */
public enum Reading {

    /**
     * Nothing on the connection has waited a whole timeout for its answer: the operation
     * waits in the gateway.
     */
    ON_TIME,
    /**
     * The oldest operation waiting is overdue, and the gateway has since read everything
     * memcached sent.
     */
    LATE,
    /**
     * The oldest operation waiting is overdue, and the gateway has not read what
     * memcached sent since: it is behind.
     */
    BEHIND,
    /**
     * The oldest operation waiting is overdue, and the gateway's reader sits idle waiting
     * for memcached.
     */
    SILENT,
    /** The connection cannot say: it is down, or unknown. */
    UNKNOWN

}
