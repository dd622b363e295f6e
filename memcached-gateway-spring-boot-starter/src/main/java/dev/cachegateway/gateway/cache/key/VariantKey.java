package dev.cachegateway.gateway.cache.key;

import java.util.Optional;

import dev.cachegateway.gateway.memcached.MemcachedLimits;

/**
 * The key of one variant of a varying answer, stored beside its primary key under the
 * primary item's epoch: {@code primary#epoch#digest}, the digest being that of the
 * request headers the answer varies on.
 */
public final class VariantKey {

    private VariantKey() {
    }

    /** The key of the variant; empty if it would be longer than memcached takes. */
    public static Optional<String> of(String primary, String epoch, String digest) {
        String key = primary + "#" + epoch + "#" + digest;
        return MemcachedLimits.fitsKeyLength(key) ? Optional.of(key) : Optional.empty();
    }

}
