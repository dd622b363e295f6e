package dev.cachegateway.gateway.memcached.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;

import dev.cachegateway.gateway.memcached.operation.DeadlineJudge.Progress;
import dev.cachegateway.gateway.memcached.operation.SendTimed;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationState;
import org.jspecify.annotations.Nullable;

/**
 * spymemcached's future of one of the gateway's own operations, which also tells when the
 * operation was written for memcached. spymemcached keeps the operation to itself; this
 * future keeps it too.
 */
final class SentOperationFuture<T> extends OperationFuture<T> implements SendTimed {

    private volatile @Nullable Operation operation;

    SentOperationFuture(String key, CountDownLatch latch, long operationTimeout, ExecutorService executor) {
        super(key, latch, operationTimeout, executor);
    }

    @Override
    public void setOperation(Operation to) {
        super.setOperation(to);
        operation = to;
    }

    @Override
    public long sentAt() {
        Operation sent = operation;
        if (sent == null) {
            return Progress.NOT_SENT;
        }
        // The state is read first, under the operation's lock, which its I/O thread took
        // after noting the time.
        OperationState state = sent.getState();
        return state == OperationState.READING || state == OperationState.COMPLETE ? sent.getWriteCompleteTimestamp()
                : Progress.NOT_SENT;
    }

}
