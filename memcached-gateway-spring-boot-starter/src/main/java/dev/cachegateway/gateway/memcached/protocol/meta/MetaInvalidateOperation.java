package dev.cachegateway.gateway.memcached.protocol.meta;

import java.nio.ByteBuffer;

import net.spy.memcached.KeyUtil;
import net.spy.memcached.ops.OperationState;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.ascii.AsciiOperationBase;

/**
 * {@code md <key> I T<seconds>}: marks the item stale instead of deleting it, and keeps
 * it for that long. The next meta get sees {@code X}, and one of them {@code W}, so one
 * client refreshes the item while the others may still serve it. Answers {@code HD} (it
 * was there) or {@code NF} (it was not).
 */
public final class MetaInvalidateOperation extends AsciiOperationBase {

    private static final OperationStatus INVALIDATED = new OperationStatus(true, "HD", StatusCode.SUCCESS);

    private static final OperationStatus NOT_FOUND = new OperationStatus(false, "NF", StatusCode.ERR_NOT_FOUND);

    private final String key;

    private final int keepSeconds;

    private final MetaCallback<Boolean> callback;

    /**
     * @param keepSeconds how long the stale item lives on; positive, since {@code T0}
     * would keep it forever
     */
    public MetaInvalidateOperation(String key, int keepSeconds, MetaCallback<Boolean> callback) {
        super(callback);
        if (keepSeconds <= 0) {
            throw new IllegalArgumentException("keepSeconds must be positive: " + keepSeconds);
        }
        this.key = key;
        this.keepSeconds = keepSeconds;
        this.callback = callback;
    }

    @Override
    public void initialize() {
        String flags = "I T" + keepSeconds;
        ByteBuffer command = ByteBuffer.allocate(KeyUtil.getKeyBytes(key).length + flags.length() + 8);
        setArguments(command, "md", key, flags);
        command.flip();
        setBuffer(command);
    }

    // memcached may echo flags after the code; only the code matters here.
    @Override
    public void handleLine(String line) {
        if (line.equals("HD") || line.startsWith("HD ")) {
            callback.gotResult(true);
            callback.receivedStatus(INVALIDATED);
            transitionState(OperationState.COMPLETE);
        }
        else if (line.equals("NF") || line.startsWith("NF ")) {
            callback.gotResult(false);
            callback.receivedStatus(NOT_FOUND);
            transitionState(OperationState.COMPLETE);
        }
        else {
            fail(line);
        }
    }

    @Override
    public String toString() {
        return "Cmd: md Key: " + key;
    }

}
