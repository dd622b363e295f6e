package net.spy.memcached.protocol.ascii;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import net.spy.memcached.ops.OperationCallback;
import net.spy.memcached.ops.OperationErrorType;
import net.spy.memcached.ops.OperationException;
import org.jspecify.annotations.NullMarked;

/**
 * Opens spymemcached's text-protocol operation base to operations of the gateway's own
 * (memcached's meta commands, in
 * {@code dev.cachegateway.gateway.memcached.protocol.meta}). {@code OperationImpl}, which
 * splits memcached's answers into lines and data, is package-private, and so is the read
 * mode an operation switches to read a data block; a class in its package is the only way
 * to extend it without copying it. Netflix's EVCache adds its meta commands to stock
 * spymemcached the same way. This class adds nothing but that access, a one-line command
 * built as spymemcached builds its own, and one change of behaviour, in
 * {@link #handleError}: it lives here, in spymemcached's package, only because Java gives
 * no other way in.
 */
@NullMarked
public abstract class AsciiOperationBase extends OperationImpl {

    protected AsciiOperationBase(OperationCallback callback) {
        super(callback);
    }

    /**
     * Makes {@code verb key flags} this operation's command, one line: the bytes
     * spymemcached's {@code setArguments} would write, the key in UTF-8 as its
     * {@code KeyUtil} encodes it. Written here, since {@code setArguments} encodes each
     * word again by the charset's name, a lookup that cost a hit more than the rest of
     * its command.
     */
    protected final void sendLine(String verb, String key, String flags) {
        byte[] keyBytes = key.getBytes(StandardCharsets.UTF_8);
        // Two spaces and CR LF besides the words; the verb and flags are ASCII.
        ByteBuffer command = ByteBuffer.allocate(verb.length() + keyBytes.length + flags.length() + 4);
        command.put(verb.getBytes(StandardCharsets.US_ASCII))
            .put((byte) ' ')
            .put(keyBytes)
            .put((byte) ' ')
            .put(flags.getBytes(StandardCharsets.US_ASCII))
            .put(CRLF);
        command.flip();
        setBuffer(command);
    }

    /**
     * Reads what follows as a data block, through {@code handleRead}, instead of as
     * lines.
     */
    protected final void readDataNext() {
        setReadType(OperationReadType.DATA);
    }

    /** Reads what follows as lines again, through {@code handleLine}. */
    protected final void readLinesNext() {
        setReadType(OperationReadType.LINE);
    }

    /**
     * Fails this operation with {@code line} as memcached's answer and leaves the
     * connection as it is.
     */
    protected final void fail(String line) {
        handleError(OperationErrorType.SERVER, line);
    }

    /**
     * Fails this operation alone. spymemcached's own handling throws, and its connection
     * takes any exception as a broken stream: it closes the connection and cancels
     * everything in flight on it. A meta command is one line and so is its error answer,
     * so after an {@code ERROR}, {@code CLIENT_ERROR} or {@code SERVER_ERROR} the stream
     * is still in step and the operations behind this one are unharmed.
     */
    @Override
    protected final void handleError(OperationErrorType type, String line) {
        try {
            // Records the error, so the operation's future fails with it, and completes
            // the operation.
            super.handleError(type, line);
        }
        catch (OperationException expected) {
            // Thrown only to tell the connection to reconnect, which this class exists to
            // avoid.
        }
        catch (IOException unexpected) {
            throw new IllegalStateException(unexpected);
        }
    }

}
