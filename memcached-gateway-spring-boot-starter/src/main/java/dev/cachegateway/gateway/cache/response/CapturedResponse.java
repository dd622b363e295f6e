package dev.cachegateway.gateway.cache.response;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;

/**
 * An answer held whole in memory, to be written to one or more clients: a hit, or a
 * backend answer that went by in full and may be shared.
 *
 * @param status the status
 * @param wire the headers, without the framing ones, and their form as written
 * @param body the whole body
 */
public record CapturedResponse(HttpStatusCode status, WireHeaders wire, byte[] body) {

    /** An answer with headers of its own, not shared with another answer. */
    public CapturedResponse(HttpStatusCode status, HttpHeaders headers, byte[] body) {
        this(status, new WireHeaders(headers), body);
    }

    /** The headers, without the framing ones. */
    public HttpHeaders headers() {
        return wire.headers();
    }

}
