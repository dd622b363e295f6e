package dev.cachegateway.gateway.server;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * How the gateway takes requests in: whether it holds each request until it knows where
 * the request ends, the largest body it then reads before it forwards one, and the
 * request headers it keeps from the backend of a cached route. Also read under its
 * earlier name, {@code gateway.request} ({@code LegacyPropertyNames}).
 */
@ConfigurationProperties("memcached.request")
public class RequestProperties {

    /**
     * Whether every request is held until its framing is sure and its body complete, and
     * refused (400, 413) where not: a guard against request smuggling, which would let
     * one client's request poison the cache for others. Off by default, since it changes
     * how every route of the application takes bodies; the demo turns it on.
     */
    private boolean framingGuard;

    /**
     * The largest request body while the framing guard is on; a larger one is answered
     * 413 (nginx's 1m).
     */
    private DataSize maxBodySize = DataSize.ofMegabytes(1);

    /**
     * Request headers removed before the backend of a cached route unless the request
     * comes from a trusted proxy: headers that change where or what a backend serves but
     * are not in the key.
     */
    private List<String> unkeyedHeaders = List.of("X-Forwarded-Host", "X-Forwarded-Scheme", "X-Forwarded-Proto",
            "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server", "Forwarded", "X-Host", "X-Original-Host",
            "X-Original-URL", "X-Rewrite-URL", "X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override");

    public boolean isFramingGuard() {
        return framingGuard;
    }

    public void setFramingGuard(boolean framingGuard) {
        this.framingGuard = framingGuard;
    }

    public DataSize getMaxBodySize() {
        return maxBodySize;
    }

    public void setMaxBodySize(DataSize maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    public List<String> getUnkeyedHeaders() {
        return unkeyedHeaders;
    }

    public void setUnkeyedHeaders(List<String> unkeyedHeaders) {
        this.unkeyedHeaders = List.copyOf(unkeyedHeaders);
    }

}
