package dev.cachegateway.gateway.cache.policy;

import java.util.OptionalLong;

import dev.cachegateway.gateway.memcached.MetaItem;

/**
 * Where an item found in memcached stands against its freshness. The item lives for its
 * freshness plus the longer of its stale windows, which its flags carry
 * ({@link StaleFlags}), so memcached's remaining TTL tells both: the item is fresh while
 * more than that window is left.
 *
 * @param staleness what the item may still be used for
 * @param ttl seconds of freshness left, negative once stale (RFC 9211's {@code ttl});
 * empty when unknown, for an item read with a plain {@code get}, which tells no TTL and
 * so is taken as fresh for its whole life, as nginx does
 */
public record ItemAge(Staleness staleness, OptionalLong ttl) {

    /** What a stale item may still be used for, by RFC 5861. */
    public enum Staleness {

        /** Fresh: a hit. */
        FRESH,
        /**
         * Inside its stale-while-revalidate window: answered at once while one gateway
         * refreshes it.
         */
        WHILE_REVALIDATE,
        /**
         * Inside its stale-if-error window only: the backend is asked, and the item
         * answers if that fails.
         */
        IF_ERROR,
        /** Past both windows, or with none: the backend is asked, as on a miss. */
        EXPIRED

    }

    /** An item whose TTL the lookup could not learn. */
    public static final ItemAge UNKNOWN = new ItemAge(Staleness.FRESH, OptionalLong.empty());

    /**
     * @param flags the item's flags
     * @param remainingTtl memcached's remaining TTL in seconds, -1 for an item that never
     * expires
     */
    public static ItemAge of(int flags, long remainingTtl) {
        StaleWindows windows = StaleFlags.decode(flags);
        if (remainingTtl < 0) {
            return new ItemAge(Staleness.FRESH, OptionalLong.empty());
        }
        // Without a window, memcached's expiry is the end of freshness, as for every item
        // of other clients.
        if (windows.longest() == 0) {
            return new ItemAge(Staleness.FRESH, OptionalLong.of(remainingTtl));
        }
        return ofFreshness(remainingTtl - windows.longest(), windows);
    }

    /**
     * An item with {@code ttl} seconds of freshness left (negative once stale) and these
     * stale windows.
     */
    public static ItemAge ofFreshness(long ttl, StaleWindows windows) {
        if (ttl > 0) {
            return new ItemAge(Staleness.FRESH, OptionalLong.of(ttl));
        }
        long staleFor = -ttl;
        Staleness staleness = staleFor < windows.whileRevalidate() ? Staleness.WHILE_REVALIDATE
                : staleFor < windows.ifError() ? Staleness.IF_ERROR : Staleness.EXPIRED;
        return new ItemAge(staleness, OptionalLong.of(ttl));
    }

    /**
     * The age of an item a lookup found: unknown when the lookup was a plain get, which
     * tells no TTL.
     */
    public static ItemAge of(MetaItem found) {
        return found.ttlKnown() ? of(found.item().flags(), found.remainingTtlSeconds()) : UNKNOWN;
    }

    /**
     * The age of an item that memcached says was invalidated ({@code md I}: a soft
     * purge): stale since, so served inside its stale windows at most; one that its TTL
     * still calls fresh is taken as stale from now.
     */
    public ItemAge invalidated(StaleWindows windows) {
        return fresh() ? ofFreshness(0, windows) : this;
    }

    /** Whether the item is fresh. */
    public boolean fresh() {
        return staleness == Staleness.FRESH;
    }
}
