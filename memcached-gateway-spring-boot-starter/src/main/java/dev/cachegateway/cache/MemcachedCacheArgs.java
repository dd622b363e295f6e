package dev.cachegateway.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.cache.format.FormatName;
import org.jspecify.annotations.Nullable;

/**
 * The arguments of a route's {@code MemcachedCache} filter, as Spring Cloud Gateway binds
 * them from the route's configuration or a route built in Java takes them; each one left
 * unset takes its default from {@link MemcachedCacheProperties}.
 */
public class MemcachedCacheArgs {

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

    public MemcachedCacheArgs setKeyTemplate(@Nullable String keyTemplate) {
        this.keyTemplate = keyTemplate;
        return this;
    }

    public @Nullable String getContentType() {
        return contentType;
    }

    public MemcachedCacheArgs setContentType(@Nullable String contentType) {
        this.contentType = contentType;
        return this;
    }

    public @Nullable Integer getGzipFlag() {
        return gzipFlag;
    }

    public MemcachedCacheArgs setGzipFlag(@Nullable Integer gzipFlag) {
        this.gzipFlag = gzipFlag;
        return this;
    }

    public @Nullable Boolean getStore() {
        return store;
    }

    public MemcachedCacheArgs setStore(@Nullable Boolean store) {
        this.store = store;
        return this;
    }

    public @Nullable Duration getDefaultTtl() {
        return defaultTtl;
    }

    public MemcachedCacheArgs setDefaultTtl(@Nullable Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
        return this;
    }

    public @Nullable Duration getMaxTtl() {
        return maxTtl;
    }

    public MemcachedCacheArgs setMaxTtl(@Nullable Duration maxTtl) {
        this.maxTtl = maxTtl;
        return this;
    }

    public @Nullable Duration getStaleWhileRevalidate() {
        return staleWhileRevalidate;
    }

    public MemcachedCacheArgs setStaleWhileRevalidate(@Nullable Duration staleWhileRevalidate) {
        this.staleWhileRevalidate = staleWhileRevalidate;
        return this;
    }

    public @Nullable Duration getStaleIfError() {
        return staleIfError;
    }

    public MemcachedCacheArgs setStaleIfError(@Nullable Duration staleIfError) {
        this.staleIfError = staleIfError;
        return this;
    }

    public @Nullable Duration getEarlyRefresh() {
        return earlyRefresh;
    }

    public MemcachedCacheArgs setEarlyRefresh(@Nullable Duration earlyRefresh) {
        this.earlyRefresh = earlyRefresh;
        return this;
    }

    public @Nullable FormatName getItemFormat() {
        return itemFormat;
    }

    public MemcachedCacheArgs setItemFormat(@Nullable FormatName itemFormat) {
        this.itemFormat = itemFormat;
        return this;
    }

    public List<String> getHideHeaders() {
        return hideHeaders;
    }

    public MemcachedCacheArgs setHideHeaders(List<String> hideHeaders) {
        this.hideHeaders = hideHeaders;
        return this;
    }

    public List<String> getPassHeaders() {
        return passHeaders;
    }

    public MemcachedCacheArgs setPassHeaders(List<String> passHeaders) {
        this.passHeaders = passHeaders;
        return this;
    }

}
