package dev.cachegateway.gateway.memcached.protocol.meta;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.memcached.CachedItem;
import net.spy.memcached.ops.OperationState;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.ascii.AsciiOperationBase;

/**
 * {@code ms <key> <size> c T<seconds> F<flags> ME} (an add) or {@code ... C<cas>} (a
 * compare-and-swap), then the item's bytes: a write that answers with the CAS unique of
 * the item it wrote ({@code HD c<cas>}). Its writer can then change or delete that item
 * with one more command that fails if anybody wrote the key since, where {@code add} then
 * {@code gets} and {@code cas} would take three, and a read then a write would leave a
 * window between them. Answers without a result: {@code NS} (an add found an item),
 * {@code EX} (the CAS differs), {@code NF} (no item to compare with).
 */
public final class MetaSetOperation extends AsciiOperationBase {

    private static final OperationStatus STORED = new OperationStatus(true, "HD", StatusCode.SUCCESS);

    private static final OperationStatus NOT_STORED = new OperationStatus(false, "NS", StatusCode.ERR_NOT_STORED);

    private static final OperationStatus EXISTS = new OperationStatus(false, "EX", StatusCode.ERR_EXISTS);

    private static final OperationStatus NOT_FOUND = new OperationStatus(false, "NF", StatusCode.ERR_NOT_FOUND);

    private final String key;

    private final int ttlSeconds;

    private final CachedItem item;

    // ME, or C and the CAS unique the item must still have.
    private final String condition;

    private final MetaCallback<Long> callback;

    private MetaSetOperation(String key, int ttlSeconds, CachedItem item, String condition,
            MetaCallback<Long> callback) {
        super(callback);
        this.key = key;
        this.ttlSeconds = ttlSeconds;
        this.item = item;
        this.condition = condition;
        this.callback = callback;
    }

    /** Stores {@code item} only where no item is. */
    public static MetaSetOperation add(String key, int ttlSeconds, CachedItem item, MetaCallback<Long> callback) {
        return new MetaSetOperation(key, ttlSeconds, item, "ME", callback);
    }

    /**
     * Stores {@code item} only where the item there still has the CAS unique {@code cas}.
     */
    public static MetaSetOperation ifCas(String key, long cas, int ttlSeconds, CachedItem item,
            MetaCallback<Long> callback) {
        return new MetaSetOperation(key, ttlSeconds, item, "C" + Long.toUnsignedString(cas), callback);
    }

    @Override
    public void initialize() {
        byte[] value = item.value();
        // The key was checked as the operation was queued (PoolClient).
        byte[] line = ("ms " + key + " " + value.length + " c T" + ttlSeconds + " F"
                + Integer.toUnsignedString(item.flags()) + " " + condition + "\r\n")
            .getBytes(StandardCharsets.UTF_8);
        ByteBuffer command = ByteBuffer.allocate(line.length + value.length + 2);
        command.put(line).put(value).put((byte) '\r').put((byte) '\n');
        command.flip();
        setBuffer(command);
    }

    @Override
    public void handleLine(String line) {
        String[] tokens = line.split(" ");
        switch (tokens[0]) {
            case "HD" -> {
                callback.gotResult(returnedCas(tokens));
                callback.receivedStatus(STORED);
                transitionState(OperationState.COMPLETE);
            }
            case "NS" -> finish(NOT_STORED);
            case "EX" -> finish(EXISTS);
            case "NF" -> finish(NOT_FOUND);
            default -> fail(line);
        }
    }

    private void finish(OperationStatus status) {
        callback.receivedStatus(status);
        transitionState(OperationState.COMPLETE);
    }

    // The c flag's value; a stream out of step fails on it, and spymemcached reconnects.
    private long returnedCas(String[] tokens) {
        for (int i = 1; i < tokens.length; i++) {
            if (tokens[i].startsWith("c")) {
                return Long.parseUnsignedLong(tokens[i], 1, tokens[i].length(), 10);
            }
        }
        throw new IllegalStateException("memcached stored " + key + " without returning its CAS unique");
    }

    @Override
    public String toString() {
        return "Cmd: ms Key: " + key;
    }

}
