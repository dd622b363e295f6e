package dev.cachegateway.gateway.memcached.operation;

/**
 * A future that can say when its operation was written for memcached, so that its
 * deadline holds against memcached only the time since then. spymemcached's own gets
 * cannot: it may merge them into one multi-get, whose parts are never written themselves.
 */
public interface SendTimed {

    /**
     * When the operation was written (System.nanoTime), or
     * {@link DeadlineJudge.Progress#NOT_SENT} while it waits.
     */
    long sentAt();

}
