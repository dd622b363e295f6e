package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.early.EarlyHitFilter;
import dev.cachegateway.gateway.cache.early.EarlyRoutes;
import dev.cachegateway.gateway.cache.early.HandedOverLookups;
import dev.cachegateway.gateway.cache.hit.DecodedItems;
import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.purge.PurgeAccess;
import dev.cachegateway.gateway.cache.purge.PurgeAccessProperties;
import dev.cachegateway.gateway.cache.purge.SoftPurge;
import dev.cachegateway.gateway.cache.invalidate.KeyInvalidation;
import dev.cachegateway.gateway.cache.key.HttpKeyPrefix;
import dev.cachegateway.gateway.cache.invalidate.WriteInvalidation;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.cache.miss.StoresUnderWay;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.cache.miss.ResponseStore;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.stale.BackgroundRefresh;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.trace.CacheSpans;
import dev.cachegateway.gateway.cache.tag.TagHeadersFilter;
import dev.cachegateway.gateway.cache.tag.TagProperties;
import dev.cachegateway.gateway.cache.tag.TagPurge;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.cloud.gateway.config.GatewayProperties;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.context.ApplicationContext;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Registers the {@code MemcachedCache} route filter, the filter that answers its hits
 * before routing, and the parts every cached route shares, since all of them share one
 * memcached key space: the lookup with its near-cache, the store, the misses in flight,
 * the replica locks and the meters.
 */
@Configuration(proxyBeanMethods = false)
public class MemcachedCacheConfiguration {

    @Bean
    @ConditionalOnMissingBean
    MemcachedCacheEndpoint memcachedCacheEndpoint(ReactiveMemcached memcached, KeyInvalidation keys,
            HttpItemProperties http, TagGenerations tags) {
        return new MemcachedCacheEndpoint(keys, new SoftPurge(memcached, keys), new HttpKeyPrefix(http.getKeyPrefix()),
                new TagPurge(memcached, tags));
    }

    @Bean(initMethod = "start", destroyMethod = "close")
    @ConditionalOnMissingBean
    TagGenerations tagGenerations(ReactiveMemcached memcached, TagProperties properties) {
        return new TagGenerations(memcached, properties.getRefreshInterval());
    }

    @Bean
    @ConditionalOnMissingBean
    TagHeadersFilter tagHeadersFilter(TagProperties properties) {
        return new TagHeadersFilter(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    PurgeAccess purgeAccess(PurgeAccessProperties properties) {
        return new PurgeAccess(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    NearCache nearCache(NearCacheProperties properties) {
        return NearCache.of(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    CacheMetrics cacheMetrics(MeterRegistry meters) {
        return new CacheMetrics(meters);
    }

    @Bean
    @ConditionalOnMissingBean
    ItemLookup itemLookup(ReactiveMemcached memcached, NearCache nearCache, DecodedItemsProperties decodedItems,
            TagGenerations tags) {
        return new ItemLookup(memcached, nearCache, DecodedItems.of(decodedItems), tags);
    }

    @Bean
    @ConditionalOnMissingBean
    ResponseStore responseStore(ReactiveMemcached memcached, MemcachedCacheProperties defaults, CacheMetrics metrics,
            NearCache nearCache) {
        return new ResponseStore(memcached, defaults.getMaxConcurrentStores(), metrics, nearCache);
    }

    @Bean
    @ConditionalOnMissingBean
    InFlightRequests inFlightRequests() {
        return new InFlightRequests();
    }

    @Bean
    @ConditionalOnMissingBean
    ReplicaLocks replicaLocks(ReactiveMemcached memcached, MemcachedCacheProperties defaults) {
        return new ReplicaLocks(memcached, defaults.getLockTimeout(), defaults.isReplicaLock());
    }

    @Bean
    @ConditionalOnMissingBean
    BackgroundRefresh backgroundRefresh(ReplicaLocks replicas, MemcachedCacheProperties defaults) {
        return new BackgroundRefresh(replicas, defaults.getLockTimeout());
    }

    @Bean
    @ConditionalOnMissingBean
    WriteFences writeFences(ReactiveMemcached memcached) {
        return new WriteFences(memcached);
    }

    @Bean
    @ConditionalOnMissingBean
    KeyInvalidation keyInvalidation(ReactiveMemcached memcached, NearCache nearCache, InFlightRequests inFlight,
            WriteFences fences, MemcachedCacheProperties defaults) {
        return new KeyInvalidation(memcached, nearCache, inFlight, fences,
                new StoresUnderWay(memcached, defaults.getLockTimeout(), defaults.isReplicaLock()));
    }

    @Bean
    @ConditionalOnMissingBean
    WriteInvalidation writeInvalidation(KeyInvalidation keys, MeterRegistry registry) {
        return new WriteInvalidation(keys, registry);
    }

    @Bean
    @ConditionalOnMissingBean
    CachedRoutes cachedRoutes(MemcachedCacheProperties defaults, HttpItemProperties http, ReactiveMemcached memcached,
            ItemLookup items, ResponseStore store, InFlightRequests inFlight, ReplicaLocks replicas, WriteFences fences,
            NearCache nearCache, BackgroundRefresh refresh, WriteInvalidation invalidation, CacheMetrics metrics,
            TagGenerations tags, CacheSpans spans) {
        return new CachedRoutes(defaults, http, memcached, items, store,
                new MissParts(inFlight, replicas, fences, nearCache, tags, spans), refresh, invalidation, metrics);
    }

    @Bean
    @ConditionalOnMissingBean
    MemcachedCacheGatewayFilterFactory memcachedCacheGatewayFilterFactory(CachedRoutes routes,
            MemcachedCacheProperties defaults) {
        return new MemcachedCacheGatewayFilterFactory(routes, defaults);
    }

    @Bean
    @ConditionalOnMissingBean(name = "memcachedCacheRouteArgumentsCheck")
    SmartInitializingSingleton memcachedCacheRouteArgumentsCheck(MemcachedCacheGatewayFilterFactory factory,
            GatewayProperties gateway, MemcachedCacheProperties defaults) {
        return () -> {
            RouteSettings.checkGzipFlag(defaults.getGzipFlag());
            new RouteArgumentsCheck(factory).check(gateway);
        };
    }

    @Bean
    CachedRouteMeters cachedRouteMeters(RouteLocator routeLocator, CacheMetrics metrics) {
        return new CachedRouteMeters(routeLocator, metrics);
    }

    @Bean
    @ConditionalOnMissingBean
    EarlyRoutes earlyRoutes(RouteLocator routeLocator) {
        return new EarlyRoutes(routeLocator);
    }

    @Bean
    @ConditionalOnMissingBean
    HandedOverLookups handedOverLookups() {
        return new HandedOverLookups();
    }

    @Bean
    @ConditionalOnMissingBean
    EarlyHitFilter earlyHitFilter(EarlyRoutes routes, ApplicationContext context, HandedOverLookups handedOver) {
        return new EarlyHitFilter(routes, context, handedOver);
    }

}
