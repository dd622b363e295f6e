package dev.cachegateway.gateway.cache.stale;

import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferFactory;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;

/**
 * The response of a background refresh: the backend's answer goes through the route's
 * filters and into memcached as a client's would, but no client is waiting for it, so its
 * bytes are read and let go here. Its status and headers are its own, apart from the
 * client's response, which has been written already.
 */
final class DetachedResponse extends AbstractServerHttpResponse {

    DetachedResponse(DataBufferFactory buffers) {
        super(buffers);
    }

    @Override
    protected Mono<Void> writeWithInternal(Publisher<? extends DataBuffer> body) {
        return Flux.from(body).doOnNext(DataBufferUtils::release).then();
    }

    @Override
    protected Mono<Void> writeAndFlushWithInternal(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        return Flux.from(body).concatMap(this::writeWithInternal).then();
    }

    @Override
    protected void applyStatusCode() {
    }

    @Override
    protected void applyHeaders() {
    }

    @Override
    protected void applyCookies() {
    }

    @Override
    public <T> T getNativeResponse() {
        throw new IllegalStateException("A background refresh has no client connection");
    }

}
