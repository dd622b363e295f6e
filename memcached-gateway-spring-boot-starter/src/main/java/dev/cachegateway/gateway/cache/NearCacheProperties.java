package dev.cachegateway.gateway.cache;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The opt-in in-process tier in front of memcached: the hottest items, kept for a short
 * while in this gateway's heap, so that their hits cost no memcached round trip. Other
 * replicas keep their own, and serve an item for up to the TTL after it is purged here.
 */
@ConfigurationProperties("memcached.cache.near-cache")
public class NearCacheProperties {

    /**
     * How long an item stays in the near-cache at most, and never beyond its memcached
     * TTL where known; 0 is off.
     */
    private Duration ttl = Duration.ZERO;

    /** How many items the near-cache holds at most. */
    private int maxEntries = 10_000;

    /** How many bytes of items (values and keys) the near-cache holds at most. */
    private DataSize maxBytes = DataSize.ofMegabytes(16);

    public Duration getTtl() {
        return ttl;
    }

    public void setTtl(Duration ttl) {
        this.ttl = ttl;
    }

    public int getMaxEntries() {
        return maxEntries;
    }

    public void setMaxEntries(int maxEntries) {
        this.maxEntries = maxEntries;
    }

    public DataSize getMaxBytes() {
        return maxBytes;
    }

    public void setMaxBytes(DataSize maxBytes) {
        this.maxBytes = maxBytes;
    }

}
