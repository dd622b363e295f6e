package dev.cachegateway.gateway.cache.tag;

/**
 * A generation as this replica last read it.
 *
 * @param generation the value, or {@link Generation#ABSENT}
 * @param changedAt when this replica first saw it, by {@link System#nanoTime()}
 * @param confirmedAt when memcached last said it
 */
record Known(long generation, long changedAt, long confirmedAt) {

    /** This one, read again at {@code now} as {@code read}. */
    Known after(long read, long now) {
        return read == generation ? new Known(generation, changedAt, now) : new Known(read, now, now);
    }

}
