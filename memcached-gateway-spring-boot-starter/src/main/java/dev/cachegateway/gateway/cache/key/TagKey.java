package dev.cachegateway.gateway.cache.key;

import java.util.HexFormat;

import dev.cachegateway.gateway.digest.Md5;
import dev.cachegateway.gateway.memcached.MemcachedLimits;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The keys of tag purges: a tag's generation, {@code %tag:<name>}, and the mark its last
 * purge leaves for a while, {@code %tag-purged:<name>}. A rendered page key has every '%'
 * escaped as %XX with hex digits, so no page key starts like these. A name that memcached
 * would not take in a key, or that makes it too long, is keyed by its digest.
 */
public final class TagKey {

    private TagKey() {
    }

    /** The key of the generation of tag {@code name}. */
    public static String of(String name) {
        return keyed("%tag:", "%tag#", name);
    }

    /** The key of the mark of the last purge of tag {@code name}. */
    public static String purgedMarkOf(String name) {
        return keyed("%tag-purged:", "%tag-purged#", name);
    }

    private static String keyed(String prefix, String digestPrefix, String name) {
        String key = prefix + name;
        if (MemcachedLimits.isValidKey(key)) {
            return key;
        }
        return digestPrefix + HexFormat.of().formatHex(Md5.digest(name.getBytes(UTF_8)));
    }

}
