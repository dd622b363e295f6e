package dev.cachegateway.gateway.cache.stale;

import java.util.List;

import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpRequestDecorator;

/**
 * The client's request as a background refresh sends it: a GET, whatever the client asked
 * (a HEAD has no body to store), without a body, and without the client's conditions,
 * since the refresh must bring the whole answer back rather than a 304 or a range of what
 * the client holds.
 */
final class RefreshRequest extends ServerHttpRequestDecorator {

    private static final List<String> CLIENT_CONDITIONS = List.of(HttpHeaders.IF_NONE_MATCH,
            HttpHeaders.IF_MODIFIED_SINCE, HttpHeaders.IF_MATCH, HttpHeaders.IF_UNMODIFIED_SINCE, HttpHeaders.IF_RANGE,
            HttpHeaders.RANGE);

    private final HttpHeaders headers;

    RefreshRequest(ServerHttpRequest client) {
        super(client);
        HttpHeaders copy = new HttpHeaders();
        copy.putAll(client.getHeaders());
        CLIENT_CONDITIONS.forEach(copy::remove);
        copy.remove(HttpHeaders.CONTENT_LENGTH);
        copy.remove(HttpHeaders.TRANSFER_ENCODING);
        this.headers = HttpHeaders.readOnlyHttpHeaders(copy);
    }

    @Override
    public HttpMethod getMethod() {
        return HttpMethod.GET;
    }

    @Override
    public HttpHeaders getHeaders() {
        return headers;
    }

    @Override
    public Flux<DataBuffer> getBody() {
        return Flux.empty();
    }

}
