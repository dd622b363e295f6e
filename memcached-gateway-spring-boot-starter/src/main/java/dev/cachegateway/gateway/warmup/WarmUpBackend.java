package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import reactor.core.publisher.Mono;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;

/**
 * The backend of the warm-up routes: an HTTP server on the loopback interface, up only
 * while the gateway warms up, so that no warm-up request reaches a real backend. It
 * answers as comments-service does, with a comment, fresh for a minute on the hit path,
 * so that its lookups hit, and for a second elsewhere, so that the items the misses store
 * are soon gone.
 */
final class WarmUpBackend implements AutoCloseable {

    private static final byte[] COMMENT = ("{\"id\":1,\"user_id\":1,\"body\":\"A comment of about the size the"
            + " comments API answers with, so that reading, copying and storing it cost what they cost for real.\","
            + "\"created_at\":\"2026-01-01T00:00:00Z\"}")
        .getBytes(StandardCharsets.UTF_8);

    private final DisposableServer server;

    private WarmUpBackend(DisposableServer server) {
        this.server = server;
    }

    static WarmUpBackend start() {
        return new WarmUpBackend(HttpServer.create().host("127.0.0.1").port(0).handle((request, response) -> {
            response.header(HttpHeaders.CONTENT_TYPE, MediaType.APPLICATION_JSON_VALUE);
            response.header(HttpHeaders.CACHE_CONTROL,
                    request.uri().endsWith(WarmUpRoutes.HIT) ? "max-age=60" : "max-age=1");
            return response.sendByteArray(Mono.just(COMMENT));
        }).bindNow());
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.port());
    }

    @Override
    public void close() {
        server.disposeNow();
    }

}
