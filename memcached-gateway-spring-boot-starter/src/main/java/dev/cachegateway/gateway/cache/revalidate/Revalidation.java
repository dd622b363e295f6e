package dev.cachegateway.gateway.cache.revalidate;

import java.util.Optional;

import dev.cachegateway.gateway.cache.response.CapturedResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ServerWebExchange;

/**
 * The stale answer that a request to the backend revalidates, carried on the exchange
 * from the lookup that found it to the backend call, which may be a miss, a
 * stale-if-error attempt or a background refresh.
 */
public final class Revalidation {

    private static final String ATTRIBUTE = Revalidation.class.getName();

    private Revalidation() {
    }

    /**
     * Whether a stored answer can be revalidated: the backend gave it an ETag or a
     * Last-Modified.
     */
    public static boolean possible(CapturedResponse stored) {
        HttpHeaders headers = stored.headers();
        return headers.containsHeader(HttpHeaders.ETAG) || headers.containsHeader(HttpHeaders.LAST_MODIFIED);
    }

    /** Has the exchange's backend call revalidate {@code stored}, when it can be. */
    public static void ask(ServerWebExchange exchange, CapturedResponse stored) {
        if (possible(stored)) {
            exchange.getAttributes().put(ATTRIBUTE, stored);
        }
    }

    /** The stale answer the exchange's backend call revalidates, if any. */
    public static Optional<CapturedResponse> of(ServerWebExchange exchange) {
        return Optional.ofNullable(exchange.getAttribute(ATTRIBUTE));
    }

    /**
     * The client's request with the stored answer's validators as its only conditions.
     * The client's own go: a 304 to them would say nothing of the stored answer. The
     * client gets the whole refreshed answer, which a 200 to a conditional request always
     * may be.
     */
    public static ServerHttpRequest conditional(ServerHttpRequest request, CapturedResponse stored) {
        HttpHeaders validators = stored.headers();
        return request.mutate().headers(headers -> {
            headers.remove(HttpHeaders.IF_NONE_MATCH);
            headers.remove(HttpHeaders.IF_MODIFIED_SINCE);
            headers.remove(HttpHeaders.IF_MATCH);
            headers.remove(HttpHeaders.IF_UNMODIFIED_SINCE);
            headers.remove(HttpHeaders.IF_RANGE);
            String etag = validators.getFirst(HttpHeaders.ETAG);
            if (etag != null) {
                headers.set(HttpHeaders.IF_NONE_MATCH, etag);
            }
            String lastModified = validators.getFirst(HttpHeaders.LAST_MODIFIED);
            if (lastModified != null) {
                headers.set(HttpHeaders.IF_MODIFIED_SINCE, lastModified);
            }
        }).build();
    }

}
