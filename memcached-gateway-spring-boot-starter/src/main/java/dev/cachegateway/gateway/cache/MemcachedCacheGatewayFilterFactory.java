package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.cache.format.FormatName;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;

/**
 * The {@code MemcachedCache} route filter: {@code - MemcachedCache} or
 * {@code - MemcachedCache=$uri$is_args$args}, or the {@code name}/{@code args} form for
 * the other arguments ({@link Config}). It lays a route's arguments over the defaults of
 * {@link MemcachedCacheProperties} and asks {@link CachedRoutes} for the route's filter.
 */
public class MemcachedCacheGatewayFilterFactory
        extends AbstractGatewayFilterFactory<MemcachedCacheGatewayFilterFactory.Config> {

    private final CachedRoutes routes;

    private final MemcachedCacheProperties defaults;

    MemcachedCacheGatewayFilterFactory(CachedRoutes routes, MemcachedCacheProperties defaults) {
        super(Config.class);
        this.routes = routes;
        this.defaults = defaults;
    }

    @Override
    public GatewayFilter apply(Config config) {
        return routes.filter(RouteSettings.of(config, defaults), config, this);
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("keyTemplate");
    }

    /**
     * A route's arguments, as Spring Cloud Gateway binds them from the route's
     * configuration or a route built in Java sets them; each one left unset takes its
     * default from {@link MemcachedCacheProperties}.
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

        private @Nullable Boolean tags;

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

        /**
         * Whether the route's {@code http} items record the tags the backend names, to
         * purge by; unset, they do. Off, the tag headers still leave its answers.
         */
        public @Nullable Boolean getTags() {
            return tags;
        }

        public Config setTags(@Nullable Boolean tags) {
            this.tags = tags;
            return this;
        }

    }

}
