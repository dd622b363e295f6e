package dev.cachegateway.gateway.cache.early;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Whether fresh hits are answered below Spring's WebHandler ({@link FastHitHandler}).
 */
@ConfigurationProperties("memcached.cache")
public class FastHitProperties {

    /**
     * Whether fresh hits of cached routes are answered below Spring's WebHandler, at less
     * CPU each: WebFilters other than the gateway's own (a security filter, say) never
     * see them, so only for a gateway whose cached routes no WebFilter guards.
     */
    private boolean hitsSkipWebFilters = false;

    public boolean isHitsSkipWebFilters() {
        return hitsSkipWebFilters;
    }

    public void setHitsSkipWebFilters(boolean hitsSkipWebFilters) {
        this.hitsSkipWebFilters = hitsSkipWebFilters;
    }

}
