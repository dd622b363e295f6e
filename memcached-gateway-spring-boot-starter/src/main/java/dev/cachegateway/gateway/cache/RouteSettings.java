package dev.cachegateway.gateway.cache;

import static org.springframework.cloud.gateway.support.GatewayToStringStyler.filterToStringCreator;

import java.time.Duration;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory.Config;
import dev.cachegateway.gateway.cache.format.FormatName;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.cache.policy.StaleWindows;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;

/**
 * A route's settings, each one the route leaves unset taken from
 * {@link MemcachedCacheProperties}.
 *
 * @param keyTemplate the key template, not yet parsed
 * @param contentType the type a hit is served with
 * @param gzipFlag the item flag that marks a gzip body
 * @param store whether a miss is stored, or only looked up
 * @param defaultTtl the lifetime of an answer without explicit freshness
 * @param maxTtl the longest lifetime an item gets
 * @param stale the stale windows of answers that name none
 * @param earlyRefresh how long before its freshness ends a hot item is refreshed; zero is
 * never
 * @param format what the route's items hold
 */
record RouteSettings(String keyTemplate, MediaType contentType, int gzipFlag, boolean store, Duration defaultTtl,
        Duration maxTtl, StaleWindows stale, Duration earlyRefresh, FormatName format) {

    RouteSettings {
        checkGzipFlag(gzipFlag);
    }

    /**
     * Refuses a gzip flag among the bits 16-30 that hold an item's stale windows: it
     * would read a window as gzip.
     */
    static void checkGzipFlag(int gzipFlag) {
        if ((gzipFlag & StaleFlags.MASK) != 0) {
            throw new IllegalArgumentException("The gzip flag " + gzipFlag + " uses flag bits 16-30, which hold an"
                    + " item's stale windows; choose a flag below 65536");
        }
    }

    static RouteSettings of(Config route, MemcachedCacheProperties defaults) {
        return new RouteSettings(orDefault(route.getKeyTemplate(), defaults.getKeyTemplate()),
                MediaType.parseMediaType(orDefault(route.getContentType(), defaults.getContentType())),
                orDefault(route.getGzipFlag(), defaults.getGzipFlag()), orDefault(route.getStore(), defaults.isStore()),
                orDefault(route.getDefaultTtl(), defaults.getDefaultTtl()),
                orDefault(route.getMaxTtl(), defaults.getMaxTtl()),
                new StaleWindows(
                        orDefault(route.getStaleWhileRevalidate(), defaults.getStaleWhileRevalidate()).toSeconds(),
                        orDefault(route.getStaleIfError(), defaults.getStaleIfError()).toSeconds()),
                orDefault(route.getEarlyRefresh(), defaults.getEarlyRefresh()),
                orDefault(route.getItemFormat(), FormatName.BODY));
    }

    /**
     * The remaining life at which memcached names one lookup to refresh an item early
     * ({@code mg ... R}), or 0 for never. An item lives for its freshness plus its stale
     * window, so this is the route's window plus the early refresh; an answer that names
     * a window of its own is refreshed that much earlier or later.
     */
    int refreshAhead(ItemFormat items) {
        if (!items.ttlEndsWithWindows()) {
            return 0;
        }
        long ahead = stale.longest() + earlyRefresh.toSeconds();
        return earlyRefresh.isZero() ? 0 : (int) Math.min(Integer.MAX_VALUE, ahead);
    }

    /**
     * The filter's {@code toString()}: this route's settings, then those every route
     * shares.
     */
    String describe(MemcachedCacheGatewayFilterFactory factory, MemcachedCacheProperties defaults) {
        return filterToStringCreator(factory).append("keyTemplate", keyTemplate)
            .append("contentType", contentType)
            .append("gzipFlag", gzipFlag)
            .append("store", store)
            .append("defaultTtl", defaultTtl)
            .append("maxTtl", maxTtl)
            .append("staleWhileRevalidate", stale.whileRevalidate())
            .append("staleIfError", stale.ifError())
            .append("earlyRefresh", earlyRefresh)
            .append("itemFormat", format)
            .append("bypassHeaders", defaults.getBypassHeaders())
            .append("storeStatuses", defaults.getStoreStatuses())
            .append("maxItemSize", defaults.getMaxItemSize())
            .append("lockTimeout", defaults.getLockTimeout())
            .append("replicaLock", defaults.isReplicaLock())
            .toString();
    }

    private static <T> T orDefault(@Nullable T routeValue, T defaultValue) {
        return routeValue != null ? routeValue : defaultValue;
    }
}
