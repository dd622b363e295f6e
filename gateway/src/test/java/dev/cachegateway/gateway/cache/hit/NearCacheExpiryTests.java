package dev.cachegateway.gateway.cache.hit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.gateway.cache.NearCacheProperties;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.memcached.CachedItem;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The near-cache's own TTL, which is all it knows of an item read from memcached, and its
 * default: off.
 */
class NearCacheExpiryTests {

    static final CachedItem ITEM = new CachedItem("{}".getBytes(StandardCharsets.UTF_8), 0);

    @Test
    void dropsAnItemReadFromMemcachedOnceItsTtlHasPassed() {
        NearCacheProperties properties = new NearCacheProperties();
        properties.setTtl(Duration.ofMillis(300));
        NearCache near = NearCache.of(properties);

        near.read("/a", ITEM, ItemAge.UNKNOWN);

        assertThat(near.get("/a")).isNotNull();
        Awaitility.await("the near-cache TTL to pass")
            .atMost(Duration.ofSeconds(5))
            .until(() -> near.get("/a") == null);
    }

    @Test
    void holdsNothingByDefault() {
        NearCache near = NearCache.of(new NearCacheProperties());

        near.read("/a", ITEM, ItemAge.UNKNOWN);
        near.stored("/b", ITEM, 60);

        assertThat(near.enabled()).isFalse();
        assertThat(near.get("/a")).isNull();
        assertThat(near.get("/b")).isNull();
    }

    @Test
    void keepsAStoredItemNoLongerThanItsMemcachedTtl() {
        NearCacheProperties properties = new NearCacheProperties();
        properties.setTtl(Duration.ofHours(1));
        NearCache near = NearCache.of(properties);

        near.stored("/c", ITEM, 1);

        assertThat(near.get("/c")).isNotNull();
        Awaitility.await("the memcached TTL to pass").atMost(Duration.ofSeconds(5)).until(() -> near.get("/c") == null);
    }

    @Test
    void keepsAReadItemNoLongerThanTheFreshnessItsLookupLearned() {
        NearCacheProperties properties = new NearCacheProperties();
        properties.setTtl(Duration.ofHours(1));
        NearCache near = NearCache.of(properties);

        near.read("/d", ITEM, ItemAge.of(0, 1));

        Awaitility.await("the item's freshness to pass")
            .atMost(Duration.ofSeconds(5))
            .until(() -> near.get("/d") == null);
    }

}
