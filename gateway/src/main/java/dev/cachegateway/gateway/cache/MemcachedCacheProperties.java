package dev.cachegateway.gateway.cache;

import java.util.ArrayList;
import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.http.HttpHeaders;

/**
 * Defaults of the {@code MemcachedCache} filter; each route may override the per-route ones in its filter
 * arguments.
 */
@ConfigurationProperties("memcached.cache")
public class MemcachedCacheProperties {

    /** The key template, per route: nginx's {@code $memcached_key}, from $uri, $args and $is_args. */
    private String keyTemplate = "$uri";

    /** The Content-Type of a hit, per route: memcached stores no type, so this is nginx's {@code default_type}. */
    private String contentType = "application/json";

    /** The flag bits that mark an item as gzip-compressed, per route (nginx's memcached_gzip_flag); 0 is off. */
    private int gzipFlag = 0;

    /** Request headers that make a request pass the cache untouched: it is neither looked up nor stored. */
    private List<String> bypassHeaders = new ArrayList<>(List.of(HttpHeaders.AUTHORIZATION));

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
}
