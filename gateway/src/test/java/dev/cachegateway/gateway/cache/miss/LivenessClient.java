package dev.cachegateway.gateway.cache.miss;

import java.util.function.BiFunction;

import dev.cachegateway.demo.support.ConcurrentGets;
import io.netty.handler.codec.http.HttpHeaders;
import reactor.core.publisher.Mono;
import reactor.netty.http.client.HttpClient;
import reactor.netty.http.client.HttpClientResponse;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;

import org.springframework.http.ResponseEntity;

/**
 * The clients the liveness rounds run with: the JDK's HttpClient on threads of its own,
 * Reactor Netty's HttpClient on event loops of its own, and Reactor Netty's HttpClient on
 * the global event loops the gateway's server runs on, as the coalescing tests once sent
 * their requests.
 */
enum LivenessClient {

    JDK {
        @Override
        Client open(int connections) {
            ConcurrentGets gets = new ConcurrentGets();
            return new Client((uri, id) -> gets.get(uri, RequestsSeen.HEADER, id), () -> {
            });
        }
    },

    REACTOR_NETTY {
        @Override
        Client open(int connections) {
            ConnectionProvider pool = ConnectionProvider.builder("liveness").maxConnections(connections).build();
            LoopResources loops = LoopResources.create("liveness-client", 2, true);
            return reactorNetty(HttpClient.create(pool).runOn(loops), () -> {
                pool.dispose();
                loops.dispose();
            });
        }
    },

    REACTOR_NETTY_ON_THE_GATEWAYS_LOOPS {
        @Override
        Client open(int connections) {
            ConnectionProvider pool = ConnectionProvider.builder("liveness-shared").maxConnections(connections).build();
            return reactorNetty(HttpClient.create(pool), pool::dispose);
        }
    };

    /** A client with a pool of {@code connections} where it keeps one. */
    abstract Client open(int connections);

    /** GETs of a URI with a request id, and how to let the client go. */
    record Client(BiFunction<String, String, Mono<ResponseEntity<byte[]>>> get,
            Runnable release) implements AutoCloseable {

        Mono<ResponseEntity<byte[]>> get(String uri, String id) {
            return get.apply(uri, id);
        }

        @Override
        public void close() {
            release.run();
        }
    }

    private static Client reactorNetty(HttpClient http, Runnable close) {
        return new Client((uri, id) -> http.headers(headers -> headers.set(RequestsSeen.HEADER, id))
            .get()
            .uri(uri)
            .responseSingle((response,
                    body) -> body.asByteArray().defaultIfEmpty(new byte[0]).map(bytes -> entity(response, bytes))),
                close);
    }

    private static ResponseEntity<byte[]> entity(HttpClientResponse response, byte[] body) {
        org.springframework.http.HttpHeaders headers = new org.springframework.http.HttpHeaders();
        HttpHeaders received = response.responseHeaders();
        received.names().forEach(name -> headers.addAll(name, received.getAll(name)));
        return ResponseEntity.status(response.status().code()).headers(headers).body(body);
    }

}
