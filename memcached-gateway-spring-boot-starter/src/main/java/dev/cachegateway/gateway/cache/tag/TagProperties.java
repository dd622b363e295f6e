package dev.cachegateway.gateway.cache.tag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Tags on answers of {@code http} routes, to purge by: which response headers name them,
 * whether clients see those headers, and how soon every replica learns of a purge.
 */
@ConfigurationProperties("memcached.cache.tags")
public class TagProperties {

    /**
     * The backend's response headers that name an answer's tags, separated by spaces or
     * commas: Fastly's Surrogate-Key and Cloudflare's Cache-Tag.
     */
    private List<String> headers = new ArrayList<>(List.of("Surrogate-Key", "Cache-Tag"));

    /**
     * Whether clients get those headers as the backend sent them; by default they are
     * taken out of every answer of a cached route, as Fastly does.
     */
    private boolean keepHeaders = false;

    /**
     * How often a replica reads the generations of the tags it has seen again: a tag
     * purge through any replica takes effect on all within this and a round trip.
     */
    private Duration refreshInterval = Duration.ofMillis(500);

    public List<String> getHeaders() {
        return headers;
    }

    public void setHeaders(List<String> headers) {
        this.headers = headers;
    }

    public boolean isKeepHeaders() {
        return keepHeaders;
    }

    public void setKeepHeaders(boolean keepHeaders) {
        this.keepHeaders = keepHeaders;
    }

    public Duration getRefreshInterval() {
        return refreshInterval;
    }

    public void setRefreshInterval(Duration refreshInterval) {
        this.refreshInterval = refreshInterval;
    }

}
