package dev.cachegateway.gateway.cache;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.StoreDecision.Skip;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The client's response on a miss. It decides from the backend's status and headers whether the answer may be
 * stored, says so in {@code X-Cache} ({@code MISS} if it may, {@code BYPASS} if not), and keeps a copy of a storable
 * body as it streams by. The copy is handed on only once the whole body has been written to the client, so the
 * client never waits for memcached; a body that outgrows the item size streams on and is not kept.
 */
final class StoringResponse extends ServerHttpResponseDecorator {

    private final HttpMethod method;

    private final StorePolicy policy;

    private final Consumer<CapturedResponse> onCaptured;

    private final Consumer<Skip> onSkipped;

    private volatile CacheStatus status = CacheStatus.MISS;

    StoringResponse(ServerHttpResponse delegate, HttpMethod method, StorePolicy policy,
            Consumer<CapturedResponse> onCaptured, Consumer<Skip> onSkipped) {
        super(delegate);
        this.method = method;
        this.policy = policy;
        this.onCaptured = onCaptured;
        this.onSkipped = onSkipped;
        // At commit, so that it also marks an error page and wins over an X-Cache from the backend.
        delegate.beforeCommit(() -> {
            delegate.getHeaders().set(CacheStatus.HEADER, status.name());
            return Mono.empty();
        });
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        StoreDecision decision = policy.decide(method, getStatusCode(), getHeaders(), System.currentTimeMillis());
        if (!decision.stores()) {
            return skip(decision.skipped(), () -> super.writeWith(body));
        }
        BodyCopy copy = new BodyCopy(policy.maxItemSize(), getHeaders().getContentLength());
        return super.writeWith(Flux.from(body).doOnNext(copy::append)).doOnSuccess(written -> {
            byte[] bytes = copy.bytes();
            if (bytes == null) {
                onSkipped.accept(Skip.TOO_LARGE);
                return;
            }
            onCaptured.accept(new CapturedResponse(getStatusCode(), shareableHeaders(), bytes, decision));
        });
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        return skip(Skip.NOT_A_BODY, () -> super.writeAndFlushWith(body));
    }

    @Override
    public Mono<Void> setComplete() {
        return isCommitted() ? super.setComplete() : skip(Skip.NOT_A_BODY, super::setComplete);
    }

    private Mono<Void> skip(Skip reason, Supplier<Mono<Void>> write) {
        status = CacheStatus.BYPASS;
        onSkipped.accept(reason);
        return write.get();
    }

    private HttpHeaders shareableHeaders() {
        HttpHeaders headers = HttpHeaders.copyOf(getHeaders());
        headers.remove(HttpHeaders.TRANSFER_ENCODING);
        headers.remove(HttpHeaders.CONNECTION);
        headers.remove(CacheStatus.HEADER);
        return headers;
    }

    /** A copy of the body up to a limit; past the limit it gives up and keeps nothing. */
    private static final class BodyCopy {

        private final long limit;

        private byte[] bytes;

        private int size;

        BodyCopy(long limit, long contentLength) {
            this.limit = limit;
            this.bytes = new byte[(int) Math.min(limit, contentLength >= 0 ? contentLength : 8192)];
        }

        void append(DataBuffer buffer) {
            int length = buffer.readableByteCount();
            if (bytes == null || size + (long) length > limit) {
                bytes = null;
                return;
            }
            if (size + length > bytes.length) {
                bytes = Arrays.copyOf(bytes, (int) Math.min(limit, Math.max(bytes.length * 2L, size + length)));
            }
            // Copies without moving the read position: the buffer still goes to the client.
            buffer.toByteBuffer(buffer.readPosition(), ByteBuffer.wrap(bytes), size, length);
            size += length;
        }

        byte[] bytes() {
            return bytes == null || size == bytes.length ? bytes : Arrays.copyOf(bytes, size);
        }
    }
}
