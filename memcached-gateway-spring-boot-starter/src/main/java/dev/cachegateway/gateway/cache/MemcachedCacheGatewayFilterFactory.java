package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.cache.format.FormatName;
import dev.cachegateway.gateway.cache.hit.ItemLookup;
import dev.cachegateway.gateway.cache.invalidate.WriteInvalidation;
import dev.cachegateway.gateway.cache.miss.BackendFallback;
import dev.cachegateway.gateway.cache.miss.MissCoalescing;
import dev.cachegateway.gateway.cache.miss.ResponseStore;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.stale.BackgroundRefresh;
import dev.cachegateway.gateway.cache.stale.StaleResponses;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * The {@code MemcachedCache} route filter: {@code - MemcachedCache} or
 * {@code - MemcachedCache=$uri$is_args$args}, or the {@code name}/{@code args} form for
 * the other settings. What a route leaves out comes from
 * {@link MemcachedCacheProperties}. The store, the in-flight misses and the metrics are
 * shared by every route, since all of them share one memcached key space.
 */
public class MemcachedCacheGatewayFilterFactory
        extends AbstractGatewayFilterFactory<MemcachedCacheGatewayFilterFactory.Config> {

    private final ItemLookup items;

    private final MemcachedCacheProperties defaults;

    private final ResponseStore store;

    private final MissParts misses;

    private final BackgroundRefresh refresh;

    private final WriteInvalidation invalidation;

    private final CacheMetrics metrics;

    private final HttpItemProperties http;

    private final ReactiveMemcached memcached;

    MemcachedCacheGatewayFilterFactory(MemcachedCacheProperties defaults, HttpItemProperties http,
            ReactiveMemcached memcached, ItemLookup items, ResponseStore store, MissParts misses,
            BackgroundRefresh refresh, WriteInvalidation invalidation, CacheMetrics metrics) {
        super(Config.class);
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

    @Override
    public GatewayFilter apply(Config config) {
        RouteSettings route = RouteSettings.of(config, defaults);
        RouteParts parts = route.format() == FormatName.HTTP ? RouteParts.wholeAnswers(route, config, defaults, http)
                : RouteParts.bodies(route, defaults, http);
        BackendFallback backend = new BackendFallback(route.store(), parts.policy(), parts.format(), memcached, store,
                misses.fences(), misses.near(), metrics);
        MissCoalescing coalescing = new MissCoalescing(misses.inFlight(), misses.replicas(), misses.fences(), backend,
                parts.format(), memcached, defaults.getLockTimeout());
        return new MemcachedCacheFilter(
                items, defaults.getBypassHeaders(), metrics, new CachedRoute(parts.keys(), parts.format(), coalescing,
                        new StaleResponses(refresh, backend), route.refreshAhead(), route.describe(this, defaults)),
                invalidation);
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("keyTemplate");
    }

    /**
     * A route's settings; each one left unset takes its default from
     * {@link MemcachedCacheProperties}.
     */
    public static class Config {

        private @Nullable String keyTemplate;

        private @Nullable String contentType;

        private @Nullable Integer gzipFlag;

        private @Nullable Boolean store;

        private @Nullable Duration defaultTtl;

        private @Nullable Duration maxTtl;

        private @Nullable Duration staleWhileRevalidate;

        private @Nullable Duration staleIfError;

        private @Nullable Duration earlyRefresh;

        private @Nullable FormatName itemFormat;

        private List<String> hideHeaders = new ArrayList<>();

        private List<String> passHeaders = new ArrayList<>();

        public @Nullable String getKeyTemplate() {
            return keyTemplate;
        }

        public Config setKeyTemplate(@Nullable String keyTemplate) {
            this.keyTemplate = keyTemplate;
            return this;
        }

        public @Nullable String getContentType() {
            return contentType;
        }

        public Config setContentType(@Nullable String contentType) {
            this.contentType = contentType;
            return this;
        }

        public @Nullable Integer getGzipFlag() {
            return gzipFlag;
        }

        public Config setGzipFlag(@Nullable Integer gzipFlag) {
            this.gzipFlag = gzipFlag;
            return this;
        }

        public @Nullable Boolean getStore() {
            return store;
        }

        public Config setStore(@Nullable Boolean store) {
            this.store = store;
            return this;
        }

        public @Nullable Duration getDefaultTtl() {
            return defaultTtl;
        }

        public Config setDefaultTtl(@Nullable Duration defaultTtl) {
            this.defaultTtl = defaultTtl;
            return this;
        }

        public @Nullable Duration getMaxTtl() {
            return maxTtl;
        }

        public Config setMaxTtl(@Nullable Duration maxTtl) {
            this.maxTtl = maxTtl;
            return this;
        }

        public @Nullable Duration getStaleWhileRevalidate() {
            return staleWhileRevalidate;
        }

        public Config setStaleWhileRevalidate(@Nullable Duration staleWhileRevalidate) {
            this.staleWhileRevalidate = staleWhileRevalidate;
            return this;
        }

        public @Nullable Duration getStaleIfError() {
            return staleIfError;
        }

        public Config setStaleIfError(@Nullable Duration staleIfError) {
            this.staleIfError = staleIfError;
            return this;
        }

        public @Nullable Duration getEarlyRefresh() {
            return earlyRefresh;
        }

        public Config setEarlyRefresh(@Nullable Duration earlyRefresh) {
            this.earlyRefresh = earlyRefresh;
            return this;
        }

        public @Nullable FormatName getItemFormat() {
            return itemFormat;
        }

        public Config setItemFormat(@Nullable FormatName itemFormat) {
            this.itemFormat = itemFormat;
            return this;
        }

        public List<String> getHideHeaders() {
            return hideHeaders;
        }

        public Config setHideHeaders(List<String> hideHeaders) {
            this.hideHeaders = hideHeaders;
            return this;
        }

        public List<String> getPassHeaders() {
            return passHeaders;
        }

        public Config setPassHeaders(List<String> passHeaders) {
            this.passHeaders = passHeaders;
            return this;
        }

    }

}
