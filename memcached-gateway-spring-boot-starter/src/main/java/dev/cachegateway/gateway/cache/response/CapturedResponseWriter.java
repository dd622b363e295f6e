package dev.cachegateway.gateway.cache.response;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * Writes an answer held in memory, a hit or a shared backend answer: its status, headers
 * and bytes with their length; only the headers for HEAD; and {@code 304 Not Modified}
 * when the request's If-None-Match matches the answer's ETag, or, without If-None-Match,
 * its If-Modified-Since is no older than the answer's Last-Modified (RFC 9110 13.1.2,
 * 13.1.3, 13.2.2), so that the client reuses what it has. Each is dated when it has no
 * {@code Date}.
 */
public final class CapturedResponseWriter {

    // RFC 9110 15.4.5: what a 304 carries of the 200 it stands for.
    private static final List<String> NOT_MODIFIED_HEADERS = List.of(HttpHeaders.ETAG, HttpHeaders.CACHE_CONTROL,
            HttpHeaders.EXPIRES, HttpHeaders.VARY, HttpHeaders.CONTENT_LOCATION, HttpHeaders.DATE, HttpHeaders.AGE);

    // The cache's own notes on a stored answer, never sent.
    private static final List<String> INTERNAL_HEADERS = List.of(Variants.HEADER, ItemTags.HEADER);

    private static final Consumer<ServerHttpResponse> NOTHING_LAST = response -> {
    };

    private CapturedResponseWriter() {
    }

    public static Mono<Void> write(ServerWebExchange exchange, CapturedResponse answer) {
        return write(exchange.getRequest(), exchange.getResponse(), answer);
    }

    /**
     * The same, onto a response that is not the exchange's own, such as the one a
     * decorator wraps.
     */
    public static Mono<Void> write(ServerHttpRequest request, ServerHttpResponse response, CapturedResponse answer) {
        return write(request, response, answer, NOTHING_LAST);
    }

    /**
     * The same, with {@code last} run on the response once the answer's status and
     * headers are set, before the write that commits it.
     */
    public static Mono<Void> write(ServerHttpRequest request, ServerHttpResponse response, CapturedResponse answer,
            Consumer<ServerHttpResponse> last) {
        HttpHeaders headers = response.getHeaders();
        if (HttpStatus.OK.equals(answer.status()) && notModified(request.getHeaders(), answer.headers())) {
            response.setStatusCode(HttpStatus.NOT_MODIFIED);
            for (String name : NOT_MODIFIED_HEADERS) {
                List<String> values = answer.headers().get(name);
                if (values != null) {
                    headers.put(name, new ArrayList<>(values));
                }
            }
            CurrentDate.addIfMissing(headers);
            last.accept(response);
            return response.setComplete();
        }
        response.setStatusCode(answer.status());
        if (!answer.wire().addTo(response, answer.body().length)) {
            // Copies of the lists: a hit's headers are shared by every hit on its item,
            // and read-only, while a later filter may add to the response's.
            answer.headers().forEach((name, values) -> headers.put(name, new ArrayList<>(values)));
            INTERNAL_HEADERS.forEach(headers::remove);
            CurrentDate.addIfMissing(headers);
            headers.setContentLength(answer.body().length);
        }
        last.accept(response);
        if (HttpMethod.HEAD.equals(request.getMethod())) {
            return response.setComplete();
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(answer.body())));
    }

    /**
     * Whether {@code name} is one of the cache's notes on an answer, which no client
     * gets.
     */
    static boolean internal(String name) {
        for (String internal : INTERNAL_HEADERS) {
            if (internal.equalsIgnoreCase(name)) {
                return true;
            }
        }
        return false;
    }

    // RFC 9110 6.6.1: a body hit has no Date, nor a backend answer that came without one,
    // and the server adds none.
    private static boolean notModified(HttpHeaders request, HttpHeaders answer) {
        if (request.containsHeader(HttpHeaders.IF_NONE_MATCH)) {
            return EntityTags.noneMatchFails(request, answer.getETag());
        }
        long since = request.getIfModifiedSince();
        // Most requests are not conditional: the answer's headers are not asked then.
        if (since < 0) {
            return false;
        }
        long lastModified = answer.getLastModified();
        return lastModified >= 0 && lastModified <= since;
    }

}
