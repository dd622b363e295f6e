package dev.cachegateway.gateway.cache.key;

import java.util.HexFormat;

import dev.cachegateway.gateway.digest.Md5;
import dev.cachegateway.gateway.memcached.MemcachedLimits;

import static java.nio.charset.StandardCharsets.UTF_8;

/**
 * The key under which a write leaves its mark for a page key. A rendered key has every
 * '%' escaped as %XX with hex digits, so no page key ends like a mark key, and a mark is
 * never served as a page. A page key too long for the suffix is marked under its digest
 * instead, so that every key can be fenced, however long.
 */
public final class WriteMarkKey {

    /** What a mark key adds to its page key. */
    public static final String SUFFIX = "%written";

    private static final String DIGEST_PREFIX = "%written:";

    private WriteMarkKey() {
    }

    /** The mark key of {@code pageKey}. */
    public static String of(String pageKey) {
        String beside = pageKey + SUFFIX;
        if (MemcachedLimits.fitsKeyLength(beside)) {
            return beside;
        }
        return DIGEST_PREFIX + HexFormat.of().formatHex(Md5.digest(pageKey.getBytes(UTF_8)));
    }

}
