package dev.cachegateway.gateway.memcached.protocol.meta;

import java.nio.ByteBuffer;

import dev.cachegateway.gateway.memcached.MetaItem;
import net.spy.memcached.ops.OperationState;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.ascii.AsciiOperationBase;

/**
 * {@code mg <key> v f t [R<seconds>]}: the item, its client flags and its remaining TTL,
 * and with a recache threshold the right to refresh it ({@code W}) for one lookup once
 * its TTL falls below it. It never sends {@code N}, so a miss never creates an item:
 * nginx would serve such a placeholder as an empty page.
 *
 * <p>
 * Answers: {@code EN} (a miss), or {@code VA <size> <flags>*} and a data block. They come
 * back in the order the commands went out, as spymemcached expects of every operation on
 * a connection, so no opaque token is sent.
 */
public final class MetaGetOperation extends AsciiOperationBase {

    private static final OperationStatus HIT = new OperationStatus(true, "VA", StatusCode.SUCCESS);

    private static final OperationStatus MISS = new OperationStatus(true, "EN", StatusCode.ERR_NOT_FOUND);

    private static final int CRLF_LENGTH = 2;

    private final String key;

    private final int recacheSeconds;

    private final MetaCallback<MetaItem> callback;

    private ReturnedFlags flags = ReturnedFlags.NONE;

    private byte[] value = new byte[0];

    private int read;

    private int crlfRead;

    /**
     * @param recacheSeconds the threshold for {@code R}; 0 or less sends none
     */
    public MetaGetOperation(String key, int recacheSeconds, MetaCallback<MetaItem> callback) {
        super(callback);
        this.key = key;
        this.recacheSeconds = recacheSeconds;
        this.callback = callback;
    }

    @Override
    public void initialize() {
        String flags = recacheSeconds > 0 ? "v f t R" + recacheSeconds : "v f t";
        sendLine("mg", key, flags);
    }

    @Override
    public void handleLine(String line) {
        if (line.equals("EN")) {
            callback.receivedStatus(MISS);
            transitionState(OperationState.COMPLETE);
        }
        else if (line.startsWith("VA ")) {
            // A malformed header leaves the rest of the stream unreadable: the exception
            // makes spymemcached reconnect, which is right then.
            String[] tokens = line.split(" ");
            value = new byte[Integer.parseInt(tokens[1])];
            flags = ReturnedFlags.parse(tokens, 2);
            readDataNext();
        }
        else {
            fail(line);
        }
    }

    // The data block and its CRLF, in as many reads as the network cuts them into.
    @Override
    public void handleRead(ByteBuffer data) {
        int wanted = Math.min(value.length - read, data.remaining());
        data.get(value, read, wanted);
        read += wanted;
        while (read == value.length && crlfRead < CRLF_LENGTH && data.hasRemaining()) {
            if (data.get() != (crlfRead == 0 ? '\r' : '\n')) {
                // The stream is out of step: the exception makes spymemcached reconnect.
                throw new IllegalStateException("memcached's data block for " + key + " does not end in CRLF");
            }
            crlfRead++;
        }
        if (crlfRead == CRLF_LENGTH) {
            callback.gotResult(flags.of(value));
            readLinesNext();
            callback.receivedStatus(HIT);
            transitionState(OperationState.COMPLETE);
        }
    }

    @Override
    public String toString() {
        return "Cmd: mg Key: " + key;
    }

}
