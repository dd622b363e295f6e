package dev.cachegateway.gateway.cache.stale;

import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.CapturedResponseWriter;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The response of a request that asks the backend for a stale item inside its
 * stale-if-error window (RFC 5861): a backend answer goes through as it is, unless it is
 * a 5xx, which is dropped for the stale item. A backend that does not answer at all is
 * the caller's to catch ({@link #answerStale}).
 */
public final class StaleIfErrorResponse extends ServerHttpResponseDecorator {

    private final ServerHttpRequest request;

    private final CapturedResponse stale;

    private final CacheOutcome outcome;

    public StaleIfErrorResponse(ServerHttpRequest request, ServerHttpResponse response, CapturedResponse stale,
            CacheOutcome outcome) {
        super(response);
        this.request = request;
        this.stale = stale;
        this.outcome = outcome;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        HttpStatusCode status = getStatusCode();
        if (status != null && status.is5xxServerError()) {
            return Flux.from(body).doOnNext(DataBufferUtils::release).then(Mono.defer(() -> answerStale(status)));
        }
        return super.writeWith(body);
    }

    @Override
    public Mono<Void> setComplete() {
        HttpStatusCode status = getStatusCode();
        return status != null && status.is5xxServerError() ? answerStale(status) : super.setComplete();
    }

    /**
     * Answers with the stale item instead of the backend, with the backend's status if it
     * answered at all.
     */
    public Mono<Void> answerStale(@Nullable HttpStatusCode backendStatus) {
        outcome.staleOnError(backendStatus != null ? backendStatus.value() : null);
        // The backend's headers are not the stale item's.
        getDelegate().getHeaders().clear();
        return CapturedResponseWriter.write(request, getDelegate(), stale);
    }

}
