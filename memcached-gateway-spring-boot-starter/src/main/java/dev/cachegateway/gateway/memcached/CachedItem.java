package dev.cachegateway.gateway.memcached;

/**
 * An item as memcached holds it: the raw value bytes and the 32-bit client flags, with no
 * encoding of our own, so that nginx, PHP, Python and every other client read and write
 * the same items.
 *
 * @param value the bytes stored
 * @param flags the client flags stored with them; nginx reads them with
 * {@code memcached_gzip_flag}
 */
public record CachedItem(byte[] value, int flags) {

    /**
     * Whether the flags share a bit with {@code flag}: nginx's test for
     * {@code memcached_gzip_flag}.
     */
    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }
}
