package dev.cachegateway.gateway.cache;

import java.util.List;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.factory.AbstractGatewayFilterFactory;
import org.springframework.http.MediaType;

/**
 * The {@code MemcachedCache} route filter: {@code - MemcachedCache} or {@code - MemcachedCache=$uri?$args}, or the
 * {@code name}/{@code args} form for the other settings. What a route leaves out comes from
 * {@link MemcachedCacheProperties}.
 */
public class MemcachedCacheGatewayFilterFactory
        extends AbstractGatewayFilterFactory<MemcachedCacheGatewayFilterFactory.Config> {

    private final ReactiveMemcached memcached;

    private final MemcachedCacheProperties defaults;

    public MemcachedCacheGatewayFilterFactory(ReactiveMemcached memcached, MemcachedCacheProperties defaults) {
        super(Config.class);
        this.memcached = memcached;
        this.defaults = defaults;
    }

    @Override
    public GatewayFilter apply(Config config) {
        CacheKeyTemplate keys = CacheKeyTemplate.parse(orDefault(config.keyTemplate, defaults.getKeyTemplate()));
        CachedResponseWriter hits = new CachedResponseWriter(
                MediaType.parseMediaType(orDefault(config.contentType, defaults.getContentType())),
                orDefault(config.gzipFlag, defaults.getGzipFlag()));
        return new MemcachedCacheFilter(memcached, keys, defaults.getBypassHeaders(), hits);
    }

    @Override
    public List<String> shortcutFieldOrder() {
        return List.of("keyTemplate");
    }

    private static <T> T orDefault(T routeValue, T defaultValue) {
        return routeValue != null ? routeValue : defaultValue;
    }

    /** A route's settings; each one left unset takes its default from {@link MemcachedCacheProperties}. */
    public static class Config {

        private String keyTemplate;

        private String contentType;

        private Integer gzipFlag;

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
    }
}
