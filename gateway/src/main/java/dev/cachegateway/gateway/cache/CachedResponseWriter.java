package dev.cachegateway.gateway.cache;

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
 * Content-Type and, when the item's flags say so, {@code Content-Encoding: gzip}.
 */
final class CachedResponseWriter {

    private final MediaType contentType;

    private final int gzipFlag;

    CachedResponseWriter(MediaType contentType, int gzipFlag) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
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
