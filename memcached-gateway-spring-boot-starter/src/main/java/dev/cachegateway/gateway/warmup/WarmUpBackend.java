package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Date;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

import io.netty.handler.codec.DateFormatter;
import io.netty.handler.codec.http.HttpResponseStatus;
import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;
import reactor.netty.http.server.HttpServerRequest;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The backend of the warm-up routes: an HTTP server on the loopback interface, up only
 * while the gateway warms up, so that no warm-up request reaches a real backend. It
 * answers as comments-service does, with a comment, fresh for a minute to a request
 * without a query string, so that its lookups hit, and for ten seconds to one with, so
 * that the items the misses store are soon gone, yet with a max-age of two digits, as a
 * real one has: Cache-Control is parsed with that branch compiled. The expiring route's
 * item is fresh for a second, and its answer takes a few milliseconds, as a real
 * backend's does, so that the requests that miss it together join one lead. Its answers
 * differ among themselves as real backends' do, so that the gateway's client and filters
 * meet them all before the first real answer: with a {@code Date}, with the tags a cached
 * route reads, with and without a reason phrase in the status line (Tomcat sends none),
 * and now and then closing the connection, so that the gateway opens new ones as it does
 * to a real backend.
 */
final class WarmUpBackend implements AutoCloseable {

    private static final byte[] COMMENT = ("{\"id\":1,\"user_id\":1,\"body\":\"A comment of about the size the"
            + " comments API answers with, so that reading, copying and storing it cost what they cost for real.\","
            + "\"created_at\":\"2026-01-01T00:00:00Z\"}")
        .getBytes(StandardCharsets.UTF_8);

    /** Every this many answers, one closes its connection. */
    static final int CLOSE_EVERY = 16;

    static final String TAGS = "memcached-gateway-warm-up memcached-gateway-warm-up-" + WarmUpRoutes.HIT;

    private static final Duration EXPIRING_ANSWER_TIME = Duration.ofMillis(20);

    private static final HttpResponseStatus OK_WITHOUT_REASON = HttpResponseStatus.valueOf(200, "");

    private final DisposableServer server;

    private WarmUpBackend(DisposableServer server) {
        this.server = server;
    }

    /** Up, with {@code tagHeader} on its cacheable answers if there is one. */
    static WarmUpBackend start(Optional<String> tagHeader) {
        AtomicLong answers = new AtomicLong();
        return new WarmUpBackend(HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .handle((request, response) -> answer(request, response, tagHeader, answers.incrementAndGet()))
            .bindNow());
    }

    private static Mono<Void> answer(HttpServerRequest request, HttpServerResponse response, Optional<String> tagHeader,
            long index) {
        // The whole path, not its end: a mirror's path is a configured route's, which may
        // end in the same word.
        boolean pass = request.uri().equals(WarmUpRoutes.PREFIX + WarmUpRoutes.PASS);
        boolean expiring = request.uri().equals(WarmUpRoutes.PREFIX + WarmUpRoutes.EXPIRING);
        response.status(index % 2 == 0 ? HttpResponseStatus.OK : OK_WITHOUT_REASON);
        response.header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
        response.header(HttpHeaders.DATE, DateFormatter.format(new Date()));
        response.header(HttpHeaders.CACHE_CONTROL, pass ? "no-store" : expiring ? "public, max-age=1"
                : request.uri().contains("?") ? "public, max-age=10" : "public, max-age=60");
        if (!pass) {
            // Two, as a list of tags usually has several. The warm-up's cache filters
            // keep bodies, which never record tags: no tag is written to memcached.
            tagHeader.ifPresent(name -> response.header(name, TAGS));
        }
        if (index % CLOSE_EVERY == 0) {
            response.keepAlive(false);
        }
        Mono<Void> sent = response.sendByteArray(Mono.just(COMMENT)).then();
        return expiring ? Mono.delay(EXPIRING_ANSWER_TIME).then(sent) : sent;
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Override
    public void close() {
        server.disposeNow();
    }

}
