package dev.cachegateway.gateway.cache.revalidate;

import java.util.Collections;
import java.util.Set;
import java.util.TreeSet;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.outcome.CacheOutcome;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DataBufferUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * The backend's answer to a revalidation. A 304 becomes the stored answer with its
 * headers brought up to date by the 304's (RFC 9111 4.3.4), written on to the response
 * below, which stores it like any answer; anything else goes through as it is.
 */
public final class RevalidatedResponse extends ServerHttpResponseDecorator {

    // What a 304 says of its own message, not of the stored answer (RFC 9111 3.2).
    private static final Set<String> NOT_UPDATED = caseless(HttpHeaders.CONTENT_LENGTH, HttpHeaders.TRANSFER_ENCODING,
            HttpHeaders.CONNECTION, "Keep-Alive", HttpHeaders.CONTENT_RANGE);

    private final CapturedResponse stored;

    private final CacheOutcome outcome;

    public RevalidatedResponse(ServerHttpResponse delegate, CapturedResponse stored, CacheOutcome outcome) {
        super(delegate);
        this.stored = stored;
        this.outcome = outcome;
    }

    @Override
    public Mono<Void> writeWith(Publisher<? extends DataBuffer> body) {
        if (!HttpStatus.NOT_MODIFIED.equals(getStatusCode())) {
            return super.writeWith(body);
        }
        return Flux.from(body).doOnNext(DataBufferUtils::release).then(Mono.defer(this::refreshed));
    }

    @Override
    public Mono<Void> setComplete() {
        return HttpStatus.NOT_MODIFIED.equals(getStatusCode()) ? refreshed() : super.setComplete();
    }

    private Mono<Void> refreshed() {
        HttpHeaders update = HttpHeaders.copyOf(getHeaders());
        HttpHeaders merged = HttpHeaders.copyOf(stored.headers());
        // The old Date and Age describe the old answer; the 304's, or the store's own
        // Date, describe this one.
        merged.remove(HttpHeaders.DATE);
        merged.remove(HttpHeaders.AGE);
        // The variant is marked again from this request when the answer is captured.
        merged.remove(Variants.HEADER);
        // The tags' generations are stamped again when the answer is stored.
        merged.remove(ItemTags.HEADER);
        update.forEach((name, values) -> {
            if (!NOT_UPDATED.contains(name)) {
                merged.put(name, values);
            }
        });
        outcome.revalidated();
        ServerHttpResponse response = getDelegate();
        response.getHeaders().clear();
        response.getHeaders().putAll(merged);
        response.getHeaders().setContentLength(stored.body().length);
        response.setStatusCode(stored.status());
        return response.writeWith(Mono.just(response.bufferFactory().wrap(stored.body())));
    }

    private static Set<String> caseless(String... names) {
        Set<String> set = new TreeSet<>(String.CASE_INSENSITIVE_ORDER);
        set.addAll(Set.of(names));
        return Collections.unmodifiableSet(set);
    }

}
