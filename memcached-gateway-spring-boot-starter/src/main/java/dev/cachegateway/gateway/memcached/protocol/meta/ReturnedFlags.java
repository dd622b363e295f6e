package dev.cachegateway.gateway.memcached.protocol.meta;

import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;

/**
 * The flags memcached returns on a meta get's {@code VA} line, as
 * {@link MetaGetOperation} asks for them: the client flags ({@code f}), the remaining TTL
 * ({@code t}), and {@code W}, {@code X} and {@code Z}. Flags it does not know are
 * skipped, so a newer memcached that adds some breaks nothing.
 *
 * @param clientFlags the item's 32-bit client flags, unsigned as memcached keeps them
 * @param remainingTtlSeconds the seconds left, or {@link MetaItem#NO_EXPIRY}
 * @param won {@code W}
 * @param stale {@code X}
 * @param winnerElsewhere {@code Z}
 */
record ReturnedFlags(int clientFlags, long remainingTtlSeconds, boolean won, boolean stale, boolean winnerElsewhere) {

    static final ReturnedFlags NONE = new ReturnedFlags(0, MetaItem.NO_EXPIRY, false, false, false);

    /**
     * Reads the flags in {@code tokens} from {@code first} on; fails on a number it
     * cannot read.
     */
    static ReturnedFlags parse(String[] tokens, int first) {
        int clientFlags = 0;
        long ttl = MetaItem.NO_EXPIRY;
        boolean won = false;
        boolean stale = false;
        boolean winnerElsewhere = false;
        for (int i = first; i < tokens.length; i++) {
            String token = tokens[i];
            if (token.isEmpty()) {
                continue;
            }
            switch (token.charAt(0)) {
                // Unsigned: memcached 1.6 keeps all 32 bits, which a signed parse would
                // refuse above 2^31 - 1.
                case 'f' -> clientFlags = Integer.parseUnsignedInt(token, 1, token.length(), 10);
                case 't' -> ttl = Long.parseLong(token, 1, token.length(), 10);
                case 'W' -> won = true;
                case 'X' -> stale = true;
                case 'Z' -> winnerElsewhere = true;
                default -> {
                    // A flag not asked for: nothing to read in it.
                }
            }
        }
        return new ReturnedFlags(clientFlags, ttl, won, stale, winnerElsewhere);
    }

    /** The lookup's answer: {@code value} with these flags. */
    MetaItem of(byte[] value) {
        return new MetaItem(new CachedItem(value, clientFlags), remainingTtlSeconds, won, stale, winnerElsewhere);
    }
}
