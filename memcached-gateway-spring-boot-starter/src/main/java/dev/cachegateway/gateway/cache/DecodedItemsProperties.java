package dev.cachegateway.gateway.cache;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * The readings of hot items kept so that the hits on one version of an item decode it,
 * and digest its ETag, once ({@link dev.cachegateway.gateway.cache.hit.DecodedItems}). It
 * saves CPU, not round trips: every hit still asks memcached, and a reading is used only
 * for the very bytes it was made from.
 */
@ConfigurationProperties("memcached.cache.decoded-items")
public class DecodedItemsProperties {

    /**
     * How many bytes of items (held twice for an http item: as read and decoded) it keeps
     * at most; 0 is off.
     */
    private DataSize maxBytes = DataSize.ofMegabytes(16);

    public DataSize getMaxBytes() {
        return maxBytes;
    }

    public void setMaxBytes(DataSize maxBytes) {
        this.maxBytes = maxBytes;
    }

}
