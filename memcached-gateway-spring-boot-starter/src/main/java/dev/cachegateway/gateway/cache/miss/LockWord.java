package dev.cachegateway.gateway.cache.miss;

import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.memcached.CachedItem;

/**
 * What a replica lock's item says: {@code locked <token>} while its replica fetches,
 * {@code storing <token>} while it stores, {@code stored} for a moment after. The one
 * place that writes and reads those words, so that the replica that holds a lock, a write
 * that waits for a store and a replica that claims a lock read them alike. A word of
 * another release (a plain {@code locked}) reads as a lock held by somebody else.
 */
record LockWord(String text) {

    private static final String LOCKED = "locked";

    private static final String STORING = "storing";

    private static final String STORED = "stored";

    static LockWord locked(String token) {
        return new LockWord(LOCKED + " " + token);
    }

    static LockWord storing(String token) {
        return new LockWord(STORING + " " + token);
    }

    static LockWord stored() {
        return new LockWord(STORED);
    }

    static LockWord of(CachedItem lock) {
        return new LockWord(new String(lock.value(), StandardCharsets.US_ASCII));
    }

    /** The answer is stored: what memcached holds under the key now is it. */
    boolean saysStored() {
        return text.equals(STORED);
    }

    /** The answer is on its way into memcached. */
    boolean saysStoring() {
        return text.startsWith(STORING + " ");
    }

    /** The lock is the one this token took. */
    boolean heldBy(String token) {
        return text.endsWith(" " + token);
    }

    CachedItem item() {
        return new CachedItem(text.getBytes(StandardCharsets.US_ASCII), 0);
    }
}
