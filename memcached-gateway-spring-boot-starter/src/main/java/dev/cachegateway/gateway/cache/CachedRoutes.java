package dev.cachegateway.gateway.cache;

import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory.Config;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.invalidate.WriteInvalidation;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.key.HttpKeyPrefix;
import dev.cachegateway.gateway.cache.miss.BackendFallback;
import dev.cachegateway.gateway.cache.miss.FreshAnswers;
import dev.cachegateway.gateway.cache.miss.MissCoalescing;
import dev.cachegateway.gateway.cache.miss.ResponseStore;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.policy.StorePolicy;
import dev.cachegateway.gateway.cache.stale.BackgroundRefresh;
import dev.cachegateway.gateway.cache.stale.StaleResponses;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;

/**
 * Builds each route's cache filter from its settings: its keys, its item format, what it
 * stores, and its misses and stale answers, on the parts every route shares, since all of
 * them share one memcached key space.
 */
public final class CachedRoutes {

    private final MemcachedCacheProperties defaults;

    private final HttpItemProperties http;

    private final ReactiveMemcached memcached;

    private final ItemLookup items;

    private final ResponseStore store;

    private final MissParts misses;

    private final BackgroundRefresh refresh;

    private final WriteInvalidation invalidation;

    private final CacheMetrics metrics;

    CachedRoutes(MemcachedCacheProperties defaults, HttpItemProperties http, ReactiveMemcached memcached,
            ItemLookup items, ResponseStore store, MissParts misses, BackgroundRefresh refresh,
            WriteInvalidation invalidation, CacheMetrics metrics) {
        this.defaults = defaults;
        this.http = http;
        this.memcached = memcached;
        this.items = items;
        this.store = store;
        this.misses = misses;
        this.refresh = refresh;
        this.invalidation = invalidation;
        this.metrics = metrics;
    }

    /**
     * The filter of a route with these settings, its arguments laid over the defaults;
     * {@code args} adds the headers it hides and passes, and {@code factory} names it in
     * the filter's {@code toString()}.
     */
    MemcachedCacheFilter filter(RouteSettings route, Config args, MemcachedCacheGatewayFilterFactory factory) {
        // The one place an item format's name matters: from here on the format decides.
        Parts parts = switch (route.format()) {
            case BODY -> bodies(route);
            case HTTP -> wholeAnswers(route, args);
        };
        BackendFallback backend = new BackendFallback(route.store(), parts.policy(), parts.format(), memcached, store,
                misses.fences(), misses.near(), misses.tags(), metrics, misses.spans());
        MissCoalescing coalescing = new MissCoalescing(misses.inFlight(), misses.replicas(), misses.fences(), backend,
                parts.format(), new FreshAnswers(memcached, parts.format(), misses.tags()), defaults.getLockTimeout(),
                misses.spans());
        return new MemcachedCacheFilter(items, defaults.getBypassHeaders(), metrics, misses.spans(),
                new CachedRoute(parts.keys(), parts.format(), coalescing, new StaleResponses(refresh, backend),
                        route.refreshAhead(parts.format()), route.describe(factory, defaults),
                        !Boolean.FALSE.equals(args.getTags())),
                invalidation);
    }

    // What a route's item format decides: its keys, how its items hold answers, and what
    // it stores.
    private record Parts(CacheKeyTemplate keys, ItemFormat format, StorePolicy policy) {
    }

    private Parts bodies(RouteSettings route) {
        CacheKeyTemplate keys = prefix().bodyKeys(route.keyTemplate());
        StorePolicy policy = new StorePolicy(defaults.getStoreStatuses(), route.defaultTtl(), route.maxTtl(),
                route.contentType(), route.gzipFlag(), defaults.getMaxItemSize().toBytes(), keys.headerNames(),
                route.stale());
        return new Parts(keys, new BodyFormat(route.contentType(), route.gzipFlag()), policy);
    }

    private Parts wholeAnswers(RouteSettings route, Config args) {
        StorePolicy policy = StorePolicy.forWholeAnswers(http.getStoreStatuses(), route.defaultTtl(), route.maxTtl(),
                defaults.getMaxItemSize().toBytes(), route.stale(), http.getKeep());
        HttpFormat format = new HttpFormat(both(http.getHideHeaders(), args.getHideHeaders()),
                both(http.getPassHeaders(), args.getPassHeaders()));
        return new Parts(prefix().wholeAnswerKeys(route.keyTemplate()), format, policy);
    }

    private HttpKeyPrefix prefix() {
        return new HttpKeyPrefix(http.getKeyPrefix());
    }

    private static List<String> both(List<String> defaults, List<String> route) {
        List<String> names = new ArrayList<>(defaults);
        names.addAll(route);
        return names;
    }

}
