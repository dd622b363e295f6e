package dev.cachegateway.gateway.cache.early;

import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;
import org.springframework.web.util.DisconnectedClientHelper;

/**
 * Ends a request answered below Spring's WebHandler as Spring's
 * {@link HttpWebHandlerAdapter} ends one that its handler answered, so that a hit that
 * fails there is no quieter than one that fails above: an answer that fails while nothing
 * is sent becomes a 500 that is logged with its error and timed; one that fails once sent
 * is logged and goes on to the server, which closes the connection; a client that left is
 * no error. Then the response is completed.
 */
final class HitEnding {

    private static final Logger log = LoggerFactory.getLogger(HitEnding.class);

    private HitEnding() {
    }

    /**
     * {@code answer}, ended; {@code answered} runs once the request has its answer, the
     * 500 included.
     */
    static Mono<Void> of(ServerHttpRequest request, ServerHttpResponse response, Mono<Void> answer, Runnable answered) {
        return answer.doOnSuccess(done -> answered.run())
            .onErrorResume(ex -> unresolved(request, response, ex, answered))
            .then(Mono.defer(response::setComplete));
    }

    private static Mono<Void> unresolved(ServerHttpRequest request, ServerHttpResponse response, Throwable ex,
            Runnable answered) {
        if (response.setStatusCode(HttpStatus.INTERNAL_SERVER_ERROR)) {
            log.error("500 Server Error for {}", described(request), ex);
            answered.run();
            return Mono.empty();
        }
        if (DisconnectedClientHelper.isClientDisconnectedException(ex)) {
            return Mono.deferContextual(context -> {
                @Nullable TracedRequest traced = context.getOrDefault(TracedRequest.class, null);
                if (traced != null) {
                    traced.unresolved(ex);
                }
                @Nullable Arrival arrival = context.getOrDefault(Arrival.class, null);
                if (arrival != null) {
                    arrival.clientLeft();
                }
                return Mono.empty();
            });
        }
        log.error("Error [{}] for {}, but the response was already committed ({})", ex, described(request),
                response.getStatusCode());
        return Mono.error(ex);
    }

    // As Spring's adapter names a request in its log.
    private static String described(ServerHttpRequest request) {
        String query = request.getURI().getRawQuery();
        return "HTTP " + request.getMethod() + " \"" + request.getPath() + (query != null ? "?" + query : "") + "\"";
    }

}
