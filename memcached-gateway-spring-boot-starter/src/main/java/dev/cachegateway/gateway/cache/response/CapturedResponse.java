package dev.cachegateway.gateway.cache.response;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;

/**
 * An answer held whole in memory, to be written to one or more clients: a hit, or a
 * backend answer that went by in full and may be shared.
 *
 * @param status the status
 * @param headers the headers, without the framing ones
 * @param body the whole body
 */
public record CapturedResponse(HttpStatusCode status, HttpHeaders headers, byte[] body) {
}
