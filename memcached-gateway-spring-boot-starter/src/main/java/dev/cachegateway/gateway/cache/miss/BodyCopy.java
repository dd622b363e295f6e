package dev.cachegateway.gateway.cache.miss;

import java.nio.ByteBuffer;
import java.util.Arrays;

import org.jspecify.annotations.Nullable;

import org.springframework.core.io.buffer.DataBuffer;

/** A copy of the body up to a limit; past the limit it gives up and keeps nothing. */
public final class BodyCopy {

    private final long limit;

    private byte @Nullable [] bytes;

    private int size;

    public BodyCopy(long limit, long contentLength) {
        this.limit = limit;
        this.bytes = new byte[(int) Math.min(limit, contentLength >= 0 ? contentLength : 8192)];
    }

    public void append(DataBuffer buffer) {
        int length = buffer.readableByteCount();
        if (bytes == null || size + (long) length > limit) {
            bytes = null;
            return;
        }
        if (size + length > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(bytes.length * 2L, size + length)));
        }
        // Copies without moving the read position: the buffer still goes to the client.
        buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(bytes), size, length);
        size += length;
    }

    public boolean gaveUp() {
        return bytes == null;
    }

    /** The body so far, or null once it outgrew the limit. */
    public byte @Nullable [] bytes() {
        return bytes == null || size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
    }

}
