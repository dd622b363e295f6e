package dev.cachegateway.gateway.cache.hit;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import dev.cachegateway.gateway.cache.NearCacheProperties;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.memcached.CachedItem;
import org.jspecify.annotations.Nullable;

/**
 * The hottest memcached items, held in this gateway's heap for a short TTL, so that a hit
 * on them costs neither a round trip nor a thread hop. An item stored by this gateway
 * lives no longer than its memcached TTL; one read from memcached, whose remaining TTL a
 * {@code get} does not tell, lives the near-cache TTL. Off (a TTL of 0), it holds nothing
 * and every call is a no-op.
 */
public final class NearCache {

    private static final NearCache OFF = new NearCache(null, 0);

    // What an entry costs besides its value and key: the entry, the item and the map's
    // node, roughly.
    private static final int ENTRY_OVERHEAD = 96;

    // None when off.
    private final @Nullable Cache<String, NearItem> items;

    private final long ttlNanos;

    private NearCache(@Nullable Cache<String, NearItem> items, long ttlNanos) {
        this.items = items;
        this.ttlNanos = ttlNanos;
    }

    public static NearCache of(NearCacheProperties properties) {
        Duration ttl = properties.getTtl();
        if (ttl.isZero() || ttl.isNegative()) {
            return OFF;
        }
        long maxBytes = properties.getMaxBytes().toBytes();
        // Caffeine bounds by size or by weight, not both. Weighing each entry at least
        // maxBytes / maxEntries bounds the entries as well: maxEntries of them reach
        // maxBytes however small they are.
        long floor = Math.max(1, maxBytes / Math.max(1, properties.getMaxEntries()));
        Cache<String, NearItem> items = Caffeine.newBuilder()
            .maximumWeight(maxBytes)
            .weigher((String key, NearItem item) -> (int) Math.min(Integer.MAX_VALUE, Math.max(floor, item.bytes(key))))
            .expireAfter(new PerItemExpiry())
            .build();
        return new NearCache(items, ttl.toNanos());
    }

    /** The near-cache that holds nothing. */
    public static NearCache off() {
        return OFF;
    }

    public boolean enabled() {
        return items != null;
    }

    /** The item under {@code key} if this gateway holds it, else null. */
    public @Nullable NearItem get(String key) {
        return items != null ? items.getIfPresent(key) : null;
    }

    /**
     * Keeps a fresh item just read from memcached, for the near-cache TTL and never past
     * its freshness where the lookup learned it.
     */
    public void read(String key, CachedItem item, ItemAge age) {
        long freshNanos = age.ttl().isPresent() ? Duration.ofSeconds(age.ttl().getAsLong()).toNanos() : Long.MAX_VALUE;
        keep(key, item, Math.min(ttlNanos, freshNanos));
    }

    /**
     * Keeps an item this gateway just stored in memcached, fresh for {@code freshSeconds}
     * (0: for ever).
     */
    public void stored(String key, CachedItem item, long freshSeconds) {
        long freshNanos = freshSeconds > 0 ? Duration.ofSeconds(freshSeconds).toNanos() : Long.MAX_VALUE;
        keep(key, item, Math.min(ttlNanos, freshNanos));
    }

    public void invalidate(String key) {
        if (items != null) {
            items.invalidate(key);
        }
    }

    /** How many items it holds now, for tests and metrics. */
    public long size() {
        if (items == null) {
            return 0;
        }
        items.cleanUp();
        return items.estimatedSize();
    }

    private void keep(String key, CachedItem item, long lifeNanos) {
        if (items != null) {
            items.put(key, new NearItem(item, lifeNanos));
        }
    }

    /** An item and how long it may stay. */
    public record NearItem(CachedItem item, long lifeNanos) {

        long bytes(String key) {
            return (long) item.value().length + 2L * key.length() + ENTRY_OVERHEAD;
        }
    }

    private static final class PerItemExpiry implements Expiry<String, NearItem> {

        @Override
        public long expireAfterCreate(String key, NearItem item, long currentTime) {
            return item.lifeNanos();
        }

        @Override
        public long expireAfterUpdate(String key, NearItem item, long currentTime, long currentDuration) {
            return item.lifeNanos();
        }

        @Override
        public long expireAfterRead(String key, NearItem item, long currentTime, long currentDuration) {
            return currentDuration;
        }

    }

}
