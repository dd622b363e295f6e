package dev.cachegateway.gateway.cache;

import java.util.Locale;

import dev.cachegateway.gateway.memcached.CachedItem;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * Answers a request from a memcached item, as nginx does on a hit: 200, the bytes, their length, the route's
 * Content-Type and, when the item's flags say so, {@code Content-Encoding: gzip}. A gzip item goes only to a client
 * that says it takes gzip; nginx would need its gunzip module for the others, and this gateway asks the backend.
 */
final class CachedResponseWriter {

    private final MediaType contentType;

    private final int gzipFlag;

    CachedResponseWriter(MediaType contentType, int gzipFlag) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
    }

    /** Whether {@code item} may answer a request with these headers: any item but a gzip one, unless it takes gzip. */
    boolean canAnswer(HttpHeaders requestHeaders, CachedItem item) {
        return !item.hasFlag(gzipFlag) || acceptsGzip(requestHeaders);
    }

    /**
     * Whether a request's {@code Accept-Encoding} takes gzip: {@code gzip}, {@code x-gzip} or {@code *} with a
     * weight above 0. Without the header, no: RFC 9110 would allow any coding, but clients such as curl without
     * {@code --compressed} do not decode it.
     */
    static boolean acceptsGzip(HttpHeaders requestHeaders) {
        Boolean star = null;
        for (String coding : requestHeaders.getValuesAsList(HttpHeaders.ACCEPT_ENCODING)) {
            String[] parts = coding.split(";");
            String name = parts[0].trim().toLowerCase(Locale.ROOT);
            boolean accepted = parts.length < 2 || !isZeroWeight(parts[1]);
            if (name.equals("gzip") || name.equals("x-gzip")) {
                return accepted;
            }
            if (name.equals("*")) {
                star = accepted;
            }
        }
        return Boolean.TRUE.equals(star);
    }

    private static boolean isZeroWeight(String parameter) {
        String weight = parameter.trim().toLowerCase(Locale.ROOT);
        return weight.startsWith("q=") && weight.substring(2).trim().matches("0(\\.0{0,3})?");
    }

    Mono<Void> write(ServerWebExchange exchange, CachedItem item) {
        ServerHttpResponse response = exchange.getResponse();
        response.setStatusCode(HttpStatus.OK);
        HttpHeaders headers = response.getHeaders();
        headers.setContentType(contentType);
        headers.setContentLength(item.value().length);
        headers.set(CacheStatus.HEADER, CacheStatus.HIT.name());
        if (item.hasFlag(gzipFlag)) {
            headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        if (HttpMethod.HEAD.equals(exchange.getRequest().getMethod())) {
            return response.setComplete();
        }
        return response.writeWith(Mono.just(response.bufferFactory().wrap(item.value())));
    }
}
