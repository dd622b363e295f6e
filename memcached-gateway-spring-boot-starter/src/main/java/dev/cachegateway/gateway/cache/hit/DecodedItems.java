package dev.cachegateway.gateway.cache.hit;

import java.util.Arrays;
import java.util.Optional;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cachegateway.gateway.cache.DecodedItemsProperties;
import dev.cachegateway.gateway.cache.format.DecodedItem;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.memcached.CachedItem;
import org.jspecify.annotations.Nullable;

/**
 * The last version of each hot key that a lookup read, decoded, so that the hits on it
 * pay for reading it once: the parse of an http item, its freshness headers and the
 * digest of its ETag. A version is its bytes and flags, so a reading is reused only for
 * an item equal to the one it was made from, byte for byte; comparing costs far less than
 * any of what it saves. Unlike the near-cache this spares no memcached round trip, and so
 * never serves an item memcached no longer holds.
 */
public final class DecodedItems {

    private static final DecodedItems OFF = new DecodedItems(null);

    // What an entry costs besides its bytes: the entry, its item, the decoded headers and
    // the map's node, roughly.
    private static final int ENTRY_OVERHEAD = 512;

    private final @Nullable Cache<String, Reading> readings;

    private DecodedItems(@Nullable Cache<String, Reading> readings) {
        this.readings = readings;
    }

    public static DecodedItems of(DecodedItemsProperties properties) {
        long maxBytes = properties.getMaxBytes().toBytes();
        if (maxBytes <= 0) {
            return OFF;
        }
        return new DecodedItems(Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((String key, Reading reading) -> (int) Math.min(Integer.MAX_VALUE, reading.bytes(key)))
            .build());
    }

    /** Decodes every item anew. */
    public static DecodedItems off() {
        return OFF;
    }

    /**
     * {@code item}, found under {@code key}, as {@code format} reads it; empty when it is
     * not of that format.
     */
    public Optional<DecodedItem> read(String key, CachedItem item, ItemFormat format) {
        if (readings == null) {
            return format.decode(item);
        }
        Reading last = readings.getIfPresent(key);
        if (last != null && last.isOf(item, format)) {
            return Optional.of(last.decoded());
        }
        Optional<DecodedItem> decoded = format.decode(item);
        decoded.ifPresent(read -> readings.put(key, new Reading(item, format, read)));
        return decoded;
    }

    /** How many readings it holds now, for tests. */
    long size() {
        if (readings == null) {
            return 0;
        }
        readings.cleanUp();
        return readings.estimatedSize();
    }

    private record Reading(CachedItem item, ItemFormat format, DecodedItem decoded) {

        boolean isOf(CachedItem found, ItemFormat asked) {
            return format == asked && item.flags() == found.flags() && Arrays.equals(item.value(), found.value());
        }

        // The bytes twice: an http item's body is a copy of part of them.
        long bytes(String key) {
            return 2L * item.value().length + 2L * key.length() + ENTRY_OVERHEAD;
        }
    }

}
