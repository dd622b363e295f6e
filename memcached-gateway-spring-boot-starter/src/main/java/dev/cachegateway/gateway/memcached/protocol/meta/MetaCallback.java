package dev.cachegateway.gateway.memcached.protocol.meta;

import net.spy.memcached.ops.OperationCallback;

/**
 * What a meta operation tells whoever waits for it: its result, if it has one, then its
 * status, then that it is complete, in that order and on spymemcached's I/O thread, as
 * spymemcached's own operations do.
 *
 * @param <T> the result
 */
public interface MetaCallback<T> extends OperationCallback {

    /** The operation's result; not called for a miss. */
    void gotResult(T result);

}
