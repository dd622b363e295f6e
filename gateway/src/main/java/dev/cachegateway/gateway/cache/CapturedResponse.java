package dev.cachegateway.gateway.cache;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatusCode;

/**
 * A backend answer that went by in full and may be stored and shared: its status, headers and body.
 *
 * @param status the status the backend sent
 * @param headers the headers the client got, less the framing ones
 * @param body the whole body
 * @param decision how it is stored
 */
record CapturedResponse(HttpStatusCode status, HttpHeaders headers, byte[] body, StoreDecision decision) {
}
