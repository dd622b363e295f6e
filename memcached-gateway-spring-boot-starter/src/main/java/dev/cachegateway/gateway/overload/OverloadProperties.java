package dev.cachegateway.gateway.overload;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * How much the gateway takes on at once before it answers 503 rather than queue: requests
 * in all, and calls to each route's backend.
 */
@ConfigurationProperties("memcached.overload")
public class OverloadProperties {

    /**
     * Whether the two limits apply. Off by default, since they would answer 503 to an
     * application's own routes too; the demo turns them on.
     */
    private boolean enabled;

    /**
     * The most requests the gateway serves at once; more get a 503 at once. Health and
     * probes are never limited.
     */
    private int maxConcurrentRequests = 4096;

    /**
     * The most calls each route makes to its backend at once (misses, errors, refreshes,
     * pass-through), unless the route's metadata says otherwise under
     * max-concurrent-backend-calls; more get a stale item or a 503.
     */
    private int maxConcurrentBackendCalls = 64;

    /**
     * What a 503 of these limits tells the client to wait before it asks again (whole
     * seconds, at least 1).
     */
    private Duration retryAfter = Duration.ofSeconds(1);

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public int getMaxConcurrentRequests() {
        return maxConcurrentRequests;
    }

    public void setMaxConcurrentRequests(int maxConcurrentRequests) {
        this.maxConcurrentRequests = maxConcurrentRequests;
    }

    public int getMaxConcurrentBackendCalls() {
        return maxConcurrentBackendCalls;
    }

    public void setMaxConcurrentBackendCalls(int maxConcurrentBackendCalls) {
        this.maxConcurrentBackendCalls = maxConcurrentBackendCalls;
    }

    public Duration getRetryAfter() {
        return retryAfter;
    }

    public void setRetryAfter(Duration retryAfter) {
        this.retryAfter = retryAfter;
    }

}
