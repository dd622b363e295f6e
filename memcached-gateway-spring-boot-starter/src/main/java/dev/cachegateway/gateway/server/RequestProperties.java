package dev.cachegateway.gateway.server;

import java.util.List;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.util.unit.DataSize;

/**
 * How the gateway takes requests in: the largest body it reads before it forwards one, and the request headers it
 * keeps from the backend of a cached route.
 */
@ConfigurationProperties("gateway.request")
public class RequestProperties {

    /** The largest request body; a larger one is answered 413 (nginx's client_max_body_size, 1m). */
    private DataSize maxBodySize = DataSize.ofMegabytes(1);

    /**
     * Request headers removed before the backend of a cached route unless the request comes from a trusted proxy:
     * headers that change where or what a backend serves but are not in the key.
     */
    private List<String> unkeyedHeaders = List.of("X-Forwarded-Host", "X-Forwarded-Scheme", "X-Forwarded-Proto",
            "X-Forwarded-Port", "X-Forwarded-Prefix", "X-Forwarded-Server", "Forwarded", "X-Host", "X-Original-Host",
            "X-Original-URL", "X-Rewrite-URL", "X-HTTP-Method-Override", "X-HTTP-Method", "X-Method-Override");

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
