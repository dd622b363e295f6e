package dev.cachegateway.gateway.cache.tag;

import java.time.Duration;

import com.github.benmanes.caffeine.cache.Expiry;

/**
 * Forgets a tag that no item was checked against for a while; a refresh of its generation
 * is not a use of it.
 */
final class UnusedTags implements Expiry<String, Known> {

    private final long unusedNanos;

    UnusedTags(Duration unused) {
        this.unusedNanos = unused.toNanos();
    }

    @Override
    public long expireAfterCreate(String tag, Known known, long now) {
        return unusedNanos;
    }

    @Override
    public long expireAfterUpdate(String tag, Known known, long now, long left) {
        return left;
    }

    @Override
    public long expireAfterRead(String tag, Known known, long now, long left) {
        return unusedNanos;
    }

}
