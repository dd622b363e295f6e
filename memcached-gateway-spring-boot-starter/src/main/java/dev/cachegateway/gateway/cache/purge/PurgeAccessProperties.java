package dev.cachegateway.gateway.cache.purge;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Who may purge through the {@code memcached} management endpoint. Its deletes change
 * what every replica serves, so they are refused unless a token is set, or purges are
 * opened to anyone who reaches the management port on purpose.
 */
@ConfigurationProperties("memcached.cache")
public class PurgeAccessProperties {

    /**
     * The bearer token every purge must carry ({@code Authorization: Bearer <token>});
     * unset, purges are refused unless purge-unauthenticated is true.
     */
    private @Nullable String purgeToken;

    /**
     * Whether purges need no token when none is set: for a management port that only
     * trusted callers can reach.
     */
    private boolean purgeUnauthenticated;

    public @Nullable String getPurgeToken() {
        return purgeToken;
    }

    public void setPurgeToken(@Nullable String purgeToken) {
        this.purgeToken = purgeToken;
    }

    public boolean isPurgeUnauthenticated() {
        return purgeUnauthenticated;
    }

    public void setPurgeUnauthenticated(boolean purgeUnauthenticated) {
        this.purgeUnauthenticated = purgeUnauthenticated;
    }

}
