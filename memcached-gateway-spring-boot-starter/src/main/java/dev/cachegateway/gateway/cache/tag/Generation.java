package dev.cachegateway.gateway.cache.tag;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.ThreadLocalRandom;

import dev.cachegateway.gateway.memcached.CachedItem;

/**
 * A tag's generation: a decimal number in memcached, which purges move with {@code incr}.
 * A hard purge adds 2^32, so the high half changes; a soft purge adds 1, so only the low
 * half does. A new generation is random below 2^62, so that a generation that memcached
 * evicted and that was made again differs from the old one in its high half, as after a
 * hard purge, and no count of purges reaches 2^63, past which the client cannot read it.
 */
final class Generation {

    /** What a replica holds for a tag that memcached has no generation of. */
    static final long ABSENT = -1;

    static final long HARD_STEP = 1L << 32;

    static final long SOFT_STEP = 1;

    private Generation() {
    }

    /**
     * Whether an item stored under {@code stamped} was purged hard by {@code current}.
     */
    static boolean purgedSince(long stamped, long current) {
        return stamped >>> 32 != current >>> 32;
    }

    static long random() {
        return ThreadLocalRandom.current().nextLong(1L << 62);
    }

    static CachedItem item(long generation) {
        return new CachedItem(Long.toString(generation).getBytes(StandardCharsets.US_ASCII), 0);
    }

    /** The value of an item; one that is not a number reads as absent. */
    static long of(CachedItem item) {
        try {
            // memcached may pad a number that incr made shorter with spaces.
            return Long.parseLong(new String(item.value(), StandardCharsets.US_ASCII).trim());
        }
        catch (NumberFormatException notANumber) {
            return ABSENT;
        }
    }

}
