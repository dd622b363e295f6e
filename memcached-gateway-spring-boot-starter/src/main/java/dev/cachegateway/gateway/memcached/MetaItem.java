package dev.cachegateway.gateway.memcached;

/**
 * An item found by a lookup, with what memcached's meta get ({@code mg}) tells of it
 * besides its bytes. A server without meta commands is asked with {@code get}, which
 * tells none of it: then the remaining TTL is {@link #TTL_UNKNOWN} and no flag is set.
 *
 * @param item the bytes and client flags stored
 * @param remainingTtlSeconds the seconds the item has left to live, {@link #NO_EXPIRY},
 * or {@link #TTL_UNKNOWN}
 * @param won whether this lookup won the right to refresh the item ({@code W}): memcached
 * gives it to one lookup once the item is stale or its remaining TTL is below the
 * lookup's recache threshold
 * @param stale whether the item has been invalidated ({@code X}) and is kept only to be
 * served while refreshed
 * @param winnerElsewhere whether another lookup already won the right to refresh it
 * ({@code Z})
 */
public record MetaItem(CachedItem item, long remainingTtlSeconds, boolean won, boolean stale, boolean winnerElsewhere) {

    /** memcached's remaining TTL of an item stored without expiry. */
    public static final long NO_EXPIRY = -1;

    /**
     * The remaining TTL of an item read with {@code get}, which does not tell it;
     * memcached never reports it.
     */
    public static final long TTL_UNKNOWN = -2;

    /**
     * An item read with {@code get}: its remaining TTL is unknown and nobody won or lost
     * anything.
     */
    public static MetaItem withoutMeta(CachedItem item) {
        return new MetaItem(item, TTL_UNKNOWN, false, false, false);
    }

    /** Whether memcached told the remaining TTL: the item came from a meta get. */
    public boolean ttlKnown() {
        return remainingTtlSeconds != TTL_UNKNOWN;
    }
}
