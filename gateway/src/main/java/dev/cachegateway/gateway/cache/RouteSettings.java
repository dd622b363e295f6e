package dev.cachegateway.gateway.cache;

import static org.springframework.cloud.gateway.support.GatewayToStringStyler.filterToStringCreator;

import java.time.Duration;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory.Config;
import org.jspecify.annotations.Nullable;

import org.springframework.http.MediaType;

/**
 * A route's settings, each one the route leaves unset taken from {@link MemcachedCacheProperties}.
 *
 * @param keyTemplate the key template, not yet parsed
 * @param contentType the type a hit is served with
 * @param gzipFlag the item flag that marks a gzip body
 * @param store whether a miss is stored, or only looked up
 * @param defaultTtl the lifetime of an answer without explicit freshness
 * @param maxTtl the longest lifetime an item gets
 */
record RouteSettings(String keyTemplate, MediaType contentType, int gzipFlag, boolean store, Duration defaultTtl,
        Duration maxTtl) {

    static RouteSettings of(Config route, MemcachedCacheProperties defaults) {
        return new RouteSettings(orDefault(route.getKeyTemplate(), defaults.getKeyTemplate()),
                MediaType.parseMediaType(orDefault(route.getContentType(), defaults.getContentType())),
                orDefault(route.getGzipFlag(), defaults.getGzipFlag()), orDefault(route.getStore(), defaults.isStore()),
                orDefault(route.getDefaultTtl(), defaults.getDefaultTtl()),
                orDefault(route.getMaxTtl(), defaults.getMaxTtl()));
    }

    /** The filter's {@code toString()}: this route's settings, then those every route shares. */
    String describe(MemcachedCacheGatewayFilterFactory factory, MemcachedCacheProperties defaults) {
        return filterToStringCreator(factory)
                .append("keyTemplate", keyTemplate)
                .append("contentType", contentType)
                .append("gzipFlag", gzipFlag)
                .append("store", store)
                .append("defaultTtl", defaultTtl)
                .append("maxTtl", maxTtl)
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
