package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * Work that goes on when the client that asked for it goes away, as Varnish finishes a
 * fetch whose client left: a lead's backend call and store are shared with its followers
 * and with the next request for its key, through this gateway or another. Without this, a
 * client that gives up costs a second backend call, and a lock claimed in memcached while
 * the client left would stay until it times out. The work keeps its own bounds: the
 * memcached operation timeout, the lock timeout and the route's backend response timeout;
 * and once its client has left, it has a grace to end in, after which it is cancelled. A
 * write to a connection the client closed need not ever end, and a lead stuck in one
 * would hold every later request for its key for the lock timeout.
 */
final class OutlivesClient {

    private OutlivesClient() {
    }

    /**
     * {@code work}, subscribed as soon as the client subscribes, and not cancelled if the
     * client cancels, but {@code grace} after; then {@code clientLeft} runs.
     */
    static Mono<Void> of(Mono<Void> work, Runnable clientLeft, Duration grace) {
        // The client's context goes with the work, so that observations and traces still
        // find their request. What the work ends with waits in the sink: once the client
        // left, a failed write to it is nobody's error.
        return Mono.deferContextual(context -> {
            Sinks.Empty<Void> ended = Sinks.empty();
            Sinks.Empty<Void> left = Sinks.empty();
            work.takeUntilOther(left.asMono().then(Mono.delay(grace)))
                .contextWrite(context)
                .subscribe(null, ended::tryEmitError, ended::tryEmitEmpty);
            return ended.asMono().doOnCancel(() -> {
                clientLeft.run();
                left.tryEmitEmpty();
            });
        });
    }

}
