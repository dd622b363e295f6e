package dev.cachegateway.gateway.memcached;

/**
 * An item with memcached's CAS unique, which changes with every write of the item: a
 * {@code cas} with it stores only if nothing wrote the key since it was read.
 *
 * @param item the bytes and client flags stored
 * @param cas the item's CAS unique as memcached gave it
 */
public record CasItem(CachedItem item, long cas) {
}
