package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.cachegateway.gateway.memcached.MemcachedLimits;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.http.HttpHeaders;
import org.springframework.util.unit.DataSize;

/**
 * Defaults of the {@code MemcachedCache} filter; each route may override the per-route
 * ones in its filter arguments.
 */
@ConfigurationProperties("memcached.cache")
public class MemcachedCacheProperties {

    /**
     * The key template, per route: nginx's {@code $memcached_key}, from $uri, $args,
     * $is_args and $http_<name>.
     */
    private String keyTemplate = "$uri";

    /**
     * The Content-Type of a hit, per route: memcached stores no type, so this is nginx's
     * {@code default_type}.
     */
    private String contentType = "application/json";

    /**
     * The flag bits that mark an item as gzip-compressed, per route (nginx's
     * memcached_gzip_flag); 0 is off.
     */
    private int gzipFlag = 0;

    /**
     * Request headers that make a request pass the cache untouched: it is neither looked
     * up nor stored.
     */
    private List<String> bypassHeaders = new ArrayList<>(List.of(HttpHeaders.AUTHORIZATION));

    /**
     * Whether a route stores cacheable backend answers on a miss, per route; off, it only
     * looks up, like nginx.
     */
    private boolean store = true;

    /**
     * How long an answer lives when it has no s-maxage, max-age or Expires, per route; 0
     * (off) stores none.
     */
    private Duration defaultTtl = Duration.ZERO;

    /**
     * The longest an answer may live whatever it says, per route; memcached itself takes
     * at most 30 days.
     */
    private Duration maxTtl = Duration.ofDays(1);

    /**
     * How long past its freshness an item is served while one gateway refreshes it, for
     * answers without stale-while-revalidate, per route; 0 is off. At most 1984 s is kept
     * (what the item's flags can say).
     */
    private Duration staleWhileRevalidate = Duration.ZERO;

    /**
     * How long past its freshness an item is served when the backend fails, for answers
     * without stale-if-error.
     */
    private Duration staleIfError = Duration.ZERO;

    /**
     * How long before its freshness ends a hot item is refreshed, once, by the first
     * lookup to ask; 0 is off.
     */
    private Duration earlyRefresh = Duration.ZERO;

    /** The backend statuses whose answers are stored. */
    private List<Integer> storeStatuses = new ArrayList<>(List.of(200));

    /**
     * The largest body that is stored; a larger one streams to the client and is not
     * kept.
     */
    private DataSize maxItemSize = MemcachedLimits.DEFAULT_MAX_ITEM_SIZE;

    /**
     * How long a miss waits for a concurrent miss's backend call before it asks the
     * backend itself.
     */
    private Duration lockTimeout = Duration.ofSeconds(5);

    /**
     * How many stores may wait for memcached at once; more are dropped and counted, not
     * queued.
     */
    private int maxConcurrentStores = 256;

    /**
     * Whether misses coalesce across replicas through a lock item in memcached; a gateway
     * alone may turn it off.
     */
    private boolean replicaLock = true;

    public String getKeyTemplate() {
        return keyTemplate;
    }

    public void setKeyTemplate(String keyTemplate) {
        this.keyTemplate = keyTemplate;
    }

    public String getContentType() {
        return contentType;
    }

    public void setContentType(String contentType) {
        this.contentType = contentType;
    }

    public int getGzipFlag() {
        return gzipFlag;
    }

    public void setGzipFlag(int gzipFlag) {
        this.gzipFlag = gzipFlag;
    }

    public List<String> getBypassHeaders() {
        return bypassHeaders;
    }

    public void setBypassHeaders(List<String> bypassHeaders) {
        this.bypassHeaders = bypassHeaders;
    }

    public boolean isStore() {
        return store;
    }

    public void setStore(boolean store) {
        this.store = store;
    }

    public Duration getDefaultTtl() {
        return defaultTtl;
    }

    public void setDefaultTtl(Duration defaultTtl) {
        this.defaultTtl = defaultTtl;
    }

    public Duration getMaxTtl() {
        return maxTtl;
    }

    public void setMaxTtl(Duration maxTtl) {
        this.maxTtl = maxTtl;
    }

    public Duration getStaleWhileRevalidate() {
        return staleWhileRevalidate;
    }

    public void setStaleWhileRevalidate(Duration staleWhileRevalidate) {
        this.staleWhileRevalidate = staleWhileRevalidate;
    }

    public Duration getStaleIfError() {
        return staleIfError;
    }

    public void setStaleIfError(Duration staleIfError) {
        this.staleIfError = staleIfError;
    }

    public Duration getEarlyRefresh() {
        return earlyRefresh;
    }

    public void setEarlyRefresh(Duration earlyRefresh) {
        this.earlyRefresh = earlyRefresh;
    }

    public List<Integer> getStoreStatuses() {
        return storeStatuses;
    }

    public void setStoreStatuses(List<Integer> storeStatuses) {
        this.storeStatuses = storeStatuses;
    }

    public DataSize getMaxItemSize() {
        return maxItemSize;
    }

    public void setMaxItemSize(DataSize maxItemSize) {
        this.maxItemSize = maxItemSize;
    }

    public Duration getLockTimeout() {
        return lockTimeout;
    }

    public void setLockTimeout(Duration lockTimeout) {
        this.lockTimeout = lockTimeout;
    }

    public int getMaxConcurrentStores() {
        return maxConcurrentStores;
    }

    public void setMaxConcurrentStores(int maxConcurrentStores) {
        this.maxConcurrentStores = maxConcurrentStores;
    }

    public boolean isReplicaLock() {
        return replicaLock;
    }

    public void setReplicaLock(boolean replicaLock) {
        this.replicaLock = replicaLock;
    }

}
