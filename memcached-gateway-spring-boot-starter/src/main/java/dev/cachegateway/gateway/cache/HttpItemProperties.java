package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * The {@code http} item format's defaults: the whole answer in memcached, as OpenResty's
 * srcache stores it. Routes choose it with {@code item-format: http}.
 */
@ConfigurationProperties("memcached.cache.http")
public class HttpItemProperties {

    /**
     * Put before every key of an {@code http} route, so that a {@code body} route, which
     * reads any item as a body, never makes the key of an item that holds headers.
     */
    private String keyPrefix = "http:";

    /**
     * The statuses stored: those RFC 9110 lets a cache store by default (15.1), as
     * srcache's {@code srcache_store_statuses}; each needs explicit freshness, or the
     * route's default TTL.
     */
    private List<Integer> storeStatuses = new ArrayList<>(
            List.of(200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501));

    /**
     * How long an answer with a validator (ETag or Last-Modified) stays in memcached past
     * its freshness, to be revalidated with a conditional request rather than fetched
     * whole (Varnish's keep).
     */
    private Duration keep = Duration.ofHours(1);

    /**
     * Response headers not stored, besides srcache's (hop-by-hop ones and Set-Cookie).
     */
    private List<String> hideHeaders = new ArrayList<>();

    /** Response headers stored although srcache would hide them, such as Set-Cookie. */
    private List<String> passHeaders = new ArrayList<>();

    public String getKeyPrefix() {
        return keyPrefix;
    }

    public void setKeyPrefix(String keyPrefix) {
        this.keyPrefix = keyPrefix;
    }

    public List<Integer> getStoreStatuses() {
        return storeStatuses;
    }

    public void setStoreStatuses(List<Integer> storeStatuses) {
        this.storeStatuses = storeStatuses;
    }

    public Duration getKeep() {
        return keep;
    }

    public void setKeep(Duration keep) {
        this.keep = keep;
    }

    public List<String> getHideHeaders() {
        return hideHeaders;
    }

    public void setHideHeaders(List<String> hideHeaders) {
        this.hideHeaders = hideHeaders;
    }

    public List<String> getPassHeaders() {
        return passHeaders;
    }

    public void setPassHeaders(List<String> passHeaders) {
        this.passHeaders = passHeaders;
    }

}
