package dev.cachegateway.gateway.backend;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** What the gateway changes in how every route talks to its backend. */
@ConfigurationProperties("memcached.backend")
public class BackendProperties {

    /**
     * Whether the backend client is hardened as nginx's is, on every route: interim 1xx
     * answers skipped, a connection whose answer overran its framing closed, a GET or
     * HEAD sent once more when a reused connection failed before the answer, and an
     * unreachable or unreadable backend answered 502 rather than 500 with a stack trace.
     * On by default: without it a cached route can store or share what a broken backend
     * connection left behind. An answer of a working backend is the same either way.
     */
    private boolean hardening = true;

    public boolean isHardening() {
        return hardening;
    }

    public void setHardening(boolean hardening) {
        this.hardening = hardening;
    }

}
