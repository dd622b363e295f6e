package dev.cachegateway.gateway.cache;

import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory.Config;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.policy.StorePolicy;

/**
 * What a route's item format decides: its keys, how its items hold answers, and what it
 * stores.
 *
 * @param keys the key template, with the {@code http} prefix for whole answers
 * @param format the item format
 * @param policy the store rules
 */
record RouteParts(CacheKeyTemplate keys, ItemFormat format, StorePolicy policy) {

    static RouteParts bodies(RouteSettings route, MemcachedCacheProperties defaults, HttpItemProperties http) {
        // A body route reads any item as a body: it must never make the key of an item
        // that holds headers.
        if (!http.getKeyPrefix().isEmpty() && route.keyTemplate().startsWith(http.getKeyPrefix())) {
            throw new IllegalArgumentException("The key template " + route.keyTemplate() + " of a body route starts"
                    + " with " + http.getKeyPrefix() + ", the prefix of http items (memcached.cache.http.key-prefix)");
        }
        CacheKeyTemplate keys = CacheKeyTemplate.parse(route.keyTemplate());
        StorePolicy policy = new StorePolicy(defaults.getStoreStatuses(), route.defaultTtl(), route.maxTtl(),
                route.contentType(), route.gzipFlag(), defaults.getMaxItemSize().toBytes(), keys.headerNames(),
                route.stale());
        return new RouteParts(keys, new BodyFormat(route.contentType(), route.gzipFlag()), policy);
    }

    static RouteParts wholeAnswers(RouteSettings route, Config config, MemcachedCacheProperties defaults,
            HttpItemProperties http) {
        CacheKeyTemplate keys = CacheKeyTemplate.parse(http.getKeyPrefix() + route.keyTemplate());
        StorePolicy policy = StorePolicy.forWholeAnswers(http.getStoreStatuses(), route.defaultTtl(), route.maxTtl(),
                defaults.getMaxItemSize().toBytes(), route.stale(), http.getKeep());
        HttpFormat format = new HttpFormat(both(http.getHideHeaders(), config.getHideHeaders()),
                both(http.getPassHeaders(), config.getPassHeaders()));
        return new RouteParts(keys, format, policy);
    }

    private static List<String> both(List<String> defaults, List<String> route) {
        List<String> names = new ArrayList<>(defaults);
        names.addAll(route);
        return names;
    }
}
