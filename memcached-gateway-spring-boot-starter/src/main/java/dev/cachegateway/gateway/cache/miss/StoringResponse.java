package dev.cachegateway.gateway.cache.miss;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.outcome.XCache;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.cache.policy.StorePolicy;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.CurrentDate;
import dev.cachegateway.gateway.cache.response.EntityTags;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The client's response on a miss. It decides from the backend's status and headers
 * whether the answer may be stored, and holds a storable body back until it has all of
 * it, so that the answer goes out with the ETag later hits will carry and says truly
 * whether it is stored. A body that outgrows the item size is let go as it is and streams
 * on. The copy is handed on once the whole body has been written, so the client never
 * waits for memcached.
 */
public final class StoringResponse extends ServerHttpResponseDecorator {

    /** Told what became of the answer. */
    public interface Capture {

        /**
         * The whole answer, written to the client, which may be stored as
         * {@code decision} says.
         */
        void captured(CapturedResponse answer, StoreDecision decision);

        void skipped(Skip reason);

    }

    private final HttpMethod method;

    private final StorePolicy policy;

    private final CacheOutcome outcome;

    private final Capture capture;

    private final AtomicReference<@Nullable CapturedResponse> whole = new AtomicReference<>();

    private volatile boolean overflowed;

    public StoringResponse(ServerHttpResponse delegate, HttpMethod method, StorePolicy policy, CacheOutcome outcome,
            Capture capture) {
        super(delegate);
        this.method = method;
        this.policy = policy;
        this.outcome = outcome;
        this.capture = capture;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        // Dated when received, so that the copy stored carries its Date too.
        CurrentDate.addIfMissing(getHeaders());
        StoreDecision decision = policy.decide(method, status(), getHeaders(), System.currentTimeMillis());
        Skip skipped = decision.skipped();
        if (skipped != null) {
            return skip(skipped, () -> super.writeWith(body));
        }
        BodyCopy copy = new BodyCopy(policy.maxItemSize(), getHeaders().getContentLength());
        Flux<DataBuffer> held = Flux.<DataBuffer>from(body)
            .doOnNext(copy::append)
            // Before bufferUntil lets the buffers go, so before the response commits.
            .doOnComplete(() -> completed(copy.bytes()))
            .bufferUntil(buffer -> copy.gaveUp() && overflowed())
            .flatMapIterable(buffers -> buffers)
            .doOnDiscard(DataBuffer.class, DataBufferUtils::release);
        return super.writeWith(held).doOnSuccess(written -> {
            if (!captured(decision)) {
                capture.skipped(Skip.TOO_LARGE);
            }
        })
            // A client that left before its answer was written still leaves the whole
            // answer to store.
            .doOnError(failed -> captured(decision))
            .doOnCancel(() -> captured(decision));
    }

    // Once at most: the whole answer, if it was all read, is handed on.
    private boolean captured(StoreDecision decision) {
        CapturedResponse answer = whole.getAndSet(null);
        if (answer == null) {
            return false;
        }
        capture.captured(answer, decision);
        return true;
    }

    @Override
    public Mono<Void> writeAndFlushWith(Publisher<? extends Publisher<? extends DataBuffer>> body) {
        return skip(Skip.NOT_A_BODY, () -> super.writeAndFlushWith(body));
    }

    @Override
    public Mono<Void> setComplete() {
        return isCommitted() ? super.setComplete() : skip(Skip.NOT_A_BODY, super::setComplete);
    }

    private void completed(byte @Nullable [] bytes) {
        if (bytes == null) {
            return;
        }
        if (!getHeaders().containsHeader(HttpHeaders.ETAG)) {
            getHeaders().setETag(EntityTags.of(bytes));
        }
        outcome.stored();
        whole.set(new CapturedResponse(status(), shareableHeaders(), bytes));
    }

    // A response whose status nobody set goes out as 200.
    private HttpStatusCode status() {
        HttpStatusCode status = getStatusCode();
        return status != null ? status : HttpStatus.OK;
    }

    // True from the first buffer past the limit on: the held buffers go out, and so does
    // each later one at once.
    private boolean overflowed() {
        if (!overflowed) {
            overflowed = true;
            outcome.notStored(Skip.TOO_LARGE);
        }
        return true;
    }

    private Mono<Void> skip(Skip reason, Supplier<Mono<Void>> write) {
        outcome.notStored(reason);
        capture.skipped(reason);
        return write.get();
    }

    // Taken before the commit, so it holds the backend's headers and the ETag, and none
    // of the cache's own.
    private HttpHeaders shareableHeaders() {
        HttpHeaders headers = HttpHeaders.copyOf(getHeaders());
        headers.remove(HttpHeaders.TRANSFER_ENCODING);
        headers.remove(HttpHeaders.CONNECTION);
        headers.remove(XCache.HEADER);
        return headers;
    }

}
