package dev.cachegateway.gateway.memcached.protocol.meta;

import net.spy.memcached.ops.OperationState;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.ascii.AsciiOperationBase;

/**
 * {@code md <key>} with a condition: {@code I T<seconds>} marks the item stale instead of
 * deleting it, and keeps it for that long (the next meta get sees {@code X}, and one of
 * them {@code W}, so one client refreshes the item while the others may still serve it);
 * {@code C<cas>} deletes it only while it still has that CAS unique. Answers {@code HD}
 * (done), or {@code NF} (no item) or {@code EX} (another CAS), which are a false result.
 */
public final class MetaDeleteOperation extends AsciiOperationBase {

    private static final OperationStatus DONE = new OperationStatus(true, "HD", StatusCode.SUCCESS);

    private static final OperationStatus NOT_FOUND = new OperationStatus(false, "NF", StatusCode.ERR_NOT_FOUND);

    private static final OperationStatus EXISTS = new OperationStatus(false, "EX", StatusCode.ERR_EXISTS);

    private final String key;

    private final String flags;

    private final MetaCallback<Boolean> callback;

    private MetaDeleteOperation(String key, String flags, MetaCallback<Boolean> callback) {
        super(callback);
        this.key = key;
        this.flags = flags;
        this.callback = callback;
    }

    /**
     * Marks the item stale; {@code keepSeconds} is how long it lives on, positive, since
     * {@code T0} would keep it forever.
     */
    public static MetaDeleteOperation invalidate(String key, int keepSeconds, MetaCallback<Boolean> callback) {
        if (keepSeconds <= 0) {
            throw new IllegalArgumentException("keepSeconds must be positive: " + keepSeconds);
        }
        return new MetaDeleteOperation(key, "I T" + keepSeconds, callback);
    }

    /** Deletes the item only while it has the CAS unique {@code cas}. */
    public static MetaDeleteOperation ifCas(String key, long cas, MetaCallback<Boolean> callback) {
        return new MetaDeleteOperation(key, "C" + Long.toUnsignedString(cas), callback);
    }

    @Override
    public void initialize() {
        sendLine("md", key, flags);
    }

    // memcached may echo flags after the code; only the code matters here.
    @Override
    public void handleLine(String line) {
        String code = line.length() > 2 && line.charAt(2) == ' ' ? line.substring(0, 2) : line;
        switch (code) {
            case "HD" -> finish(true, DONE);
            case "NF" -> finish(false, NOT_FOUND);
            case "EX" -> finish(false, EXISTS);
            default -> fail(line);
        }
    }

    private void finish(boolean done, OperationStatus status) {
        callback.gotResult(done);
        callback.receivedStatus(status);
        transitionState(OperationState.COMPLETE);
    }

    @Override
    public String toString() {
        return "Cmd: md Key: " + key;
    }

}
