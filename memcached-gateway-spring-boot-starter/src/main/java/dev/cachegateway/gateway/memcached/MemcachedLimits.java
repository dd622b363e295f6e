package dev.cachegateway.gateway.memcached;

import java.time.Duration;

import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;

import org.springframework.util.unit.DataSize;

/**
 * What memcached itself allows, in one place, so that the cache asks rather than knows:
 * how long and of which bytes a key may be, how long an item may live, how large it is by
 * default, and which failure means "not asked at all".
 */
public final class MemcachedLimits {

    /** The longest key memcached takes, in bytes. */
    public static final int MAX_KEY_BYTES = 250;

    /** memcached reads a larger expiry as a Unix time, not as seconds from now. */
    public static final long MAX_TTL_SECONDS = Duration.ofDays(30).toSeconds();

    /** memcached's default largest item ({@code -I 1m}). */
    public static final DataSize DEFAULT_MAX_ITEM_SIZE = DataSize.ofMegabytes(1);

    private MemcachedLimits() {
    }

    /**
     * Whether the text protocol can carry {@code key}: 1 to 250 bytes, none of them a
     * space or a control byte.
     */
    public static boolean isValidKey(CharSequence key) {
        if (key == null || key.isEmpty()) {
            return false;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c <= ' ' || c == 0x7f) {
                return false;
            }
        }
        return fitsKeyLength(key);
    }

    /**
     * Whether {@code key} is at most 250 bytes long in UTF-8, the encoding it goes to
     * memcached in.
     */
    public static boolean fitsKeyLength(CharSequence key) {
        int bytes = 0;
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            }
            else if (c < 0x800) {
                bytes += 2;
            }
            else if (Character.isHighSurrogate(c)) {
                bytes += 4;
                i++;
            }
            else {
                bytes += 3;
            }
        }
        return bytes <= MAX_KEY_BYTES;
    }

    /**
     * Whether an operation failed because the circuit breaker turned it away, so it never
     * reached memcached.
     */
    public static boolean isCircuitOpen(Throwable failure) {
        return failure instanceof CallNotPermittedException;
    }

    /**
     * Whether an operation was given up on because the gateway, not memcached, was paused
     * or behind.
     */
    public static boolean isGatewayDelay(Throwable failure) {
        return failure instanceof GatewayDelayException;
    }

}
