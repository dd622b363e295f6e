package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.miss.BackendFallback;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.MissCoalescing;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.cache.miss.ResponseStore;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.policy.StorePolicy;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * The {@code MemcachedCache} route filter: {@code - MemcachedCache} or {@code - MemcachedCache=$uri$is_args$args},
 * or the {@code name}/{@code args} form for the other settings. What a route leaves out comes from
 * {@link MemcachedCacheProperties}. The store, the in-flight misses and the metrics are shared by every route,
 * since all of them share one memcached key space.
 */
public class MemcachedCacheGatewayFilterFactory
        extends AbstractGatewayFilterFactory<MemcachedCacheGatewayFilterFactory.Config> {

    private final ItemLookup items;

    private final MemcachedCacheProperties defaults;

    private final ResponseStore store;

    private final InFlightRequests inFlight;

    private final ReplicaLocks replicas;

    private final CacheMetrics metrics;

    MemcachedCacheGatewayFilterFactory(ReactiveMemcached memcached, MemcachedCacheProperties defaults,
            NearCache nearCache, MeterRegistry meters) {
        super(Config.class);
        this.items = new ItemLookup(memcached, nearCache);
        this.defaults = defaults;
        this.metrics = new CacheMetrics(meters);
        this.store = new ResponseStore(memcached, defaults.getMaxConcurrentStores(), metrics, nearCache);
        this.inFlight = new InFlightRequests();
        this.replicas = new ReplicaLocks(memcached, defaults.getLockTimeout(), defaults.isReplicaLock());
    }

    @Override
    public GatewayFilter apply(Config config) {
        RouteSettings route = RouteSettings.of(config, defaults);
        CacheKeyTemplate keys = CacheKeyTemplate.parse(route.keyTemplate());
        StorePolicy policy = new StorePolicy(defaults.getStoreStatuses(), route.defaultTtl(), route.maxTtl(),
                route.contentType(), route.gzipFlag(), defaults.getMaxItemSize().toBytes(), keys.headerNames());
        BodyFormat hits = new BodyFormat(route.contentType(), route.gzipFlag());
        MissCoalescing misses = new MissCoalescing(inFlight, replicas,
                new BackendFallback(route.store(), policy, store, metrics), hits, defaults.getLockTimeout());
        return new MemcachedCacheFilter(items, keys, defaults.getBypassHeaders(),
                hits, misses, metrics, route.describe(this, defaults));
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("keyTemplate");
    }

    /** A route's settings; each one left unset takes its default from {@link MemcachedCacheProperties}. */
    public static class Config {

        private String keyTemplate;

        private String contentType;

        private Integer gzipFlag;

        private Boolean store;

        private Duration defaultTtl;

        private Duration maxTtl;

        public String getKeyTemplate() {
            return keyTemplate;
        }

        public Config setKeyTemplate(String keyTemplate) {
            this.keyTemplate = keyTemplate;
            return this;
        }

        public String getContentType() {
            return contentType;
        }

        public Config setContentType(String contentType) {
            this.contentType = contentType;
            return this;
        }

        public Integer getGzipFlag() {
            return gzipFlag;
        }

        public Config setGzipFlag(Integer gzipFlag) {
            this.gzipFlag = gzipFlag;
            return this;
        }

        public Boolean getStore() {
            return store;
        }

        public Config setStore(Boolean store) {
            this.store = store;
            return this;
        }

        public Duration getDefaultTtl() {
            return defaultTtl;
        }

        public Config setDefaultTtl(Duration defaultTtl) {
            this.defaultTtl = defaultTtl;
            return this;
        }

        public Duration getMaxTtl() {
            return maxTtl;
        }

        public Config setMaxTtl(Duration maxTtl) {
            this.maxTtl = maxTtl;
            return this;
        }
    }
}
