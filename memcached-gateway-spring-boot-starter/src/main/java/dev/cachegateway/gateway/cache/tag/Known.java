package dev.cachegateway.gateway.cache.tag;

/**
 * A generation as this replica last read it; times by {@link System#nanoTime()}.
 *
 * @param generation the value, or {@link Generation#ABSENT}
 * @param changedAt when this replica first saw this value
 * @param confirmedAt when the last read that said it was sent: it holds from then on
 * @param firstSeenAt when this replica first read the tag's generation at all
 */
record Known(long generation, long changedAt, long confirmedAt, long firstSeenAt) {

    /** A tag's generation read for the first time. */
    static Known first(long generation, long sent, long now) {
        return new Known(generation, now, sent, now);
    }

    /**
     * This one, read again as {@code read} at {@code now} by a read sent at {@code sent}.
     */
    Known after(long read, long sent, long now) {
        return read == generation ? new Known(generation, changedAt, Math.max(sent, confirmedAt), firstSeenAt)
                : new Known(read, now, sent, firstSeenAt);
    }

    /** Whether this replica knew it, as it is now, from before {@code since}. */
    boolean unchangedSince(long since, long current) {
        return firstSeenAt - since <= 0 && changedAt - since <= 0 && generation == current;
    }

}
