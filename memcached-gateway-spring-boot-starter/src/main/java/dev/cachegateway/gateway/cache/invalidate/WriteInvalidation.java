package dev.cachegateway.gateway.cache.invalidate;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.logging.BurstLog;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;

/**
 * RFC 9111 4.4: a cache MUST invalidate the target URI of an unsafe request (POST, PUT,
 * DELETE, PATCH, or any method it does not know to be safe) whose answer is not an error,
 * and may invalidate a same-origin {@code Location} and {@code Content-Location}. Here
 * that is a {@link KeyInvalidation} of the keys the route's template makes of them, so
 * that no replica and no plain {@code get} reader (nginx, PHP) serves the old item again,
 * and no fetch from before the write stores it back; other replicas' near-caches keep
 * theirs for up to their TTL, as after a purge. The marks and deletes go out before the
 * answer does, so a client that reads right after its write never gets the old item from
 * memcached. A memcached that fails them costs the answer nothing but the wait, and they
 * are sent again until it takes them ({@link OwedDeletes}).
 */
public final class WriteInvalidation implements AutoCloseable {

    // RFC 9110 9.2.1; every other method, one this gateway has never heard of included,
    // may change the resource.
    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);

    private static final BurstLog failures = BurstLog.of(WriteInvalidation.class);

    private final KeyInvalidation keys;

    private final OwedDeletes owed;

    public WriteInvalidation(KeyInvalidation keys, MeterRegistry registry) {
        this.keys = keys;
        this.owed = new OwedDeletes(this::invalidate, registry);
    }

    /**
     * Whether {@code method} may change the resource, so that its success invalidates:
     * any method but the safe ones (RFC 9111 4.4 counts methods whose safety is unknown
     * as unsafe).
     */
    public static boolean invalidates(HttpMethod method) {
        return !SAFE.contains(method);
    }

    /**
     * Has the exchange's answer, once it is known to be a success, invalidate what the
     * write changed.
     */
    public void onSuccess(ServerWebExchange exchange, CacheKeyTemplate keys) {
        ServerHttpResponse response = exchange.getResponse();
        response.beforeCommit(() -> {
            HttpStatusCode status = response.getStatusCode();
            if (status == null || !(status.is2xxSuccessful() || status.is3xxRedirection())) {
                return Mono.empty();
            }
            return Flux.fromIterable(keysOf(exchange.getRequest(), response.getHeaders(), keys))
                .flatMap(this::delete)
                .then();
        });
    }

    private Mono<Boolean> delete(String key) {
        return invalidate(key).doOnNext(taken -> owed.settle(key, taken));
    }

    // True if memcached took the mark and the delete; never fails.
    private Mono<Boolean> invalidate(String key) {
        return keys.invalidate(key).thenReturn(true).onErrorResume(failure -> {
            failures.warn("memcached failed to invalidate " + key + " after a write; invalidated again once it answers",
                    failure);
            return Mono.just(false);
        });
    }

    /** Stops invalidating again what memcached failed to take. */
    @Override
    public void close() {
        owed.close();
    }

    // The target URI, then Location and Content-Location where they name a resource of
    // the same origin.
    private static Set<String> keysOf(ServerHttpRequest request, HttpHeaders answer, CacheKeyTemplate keys) {
        Set<String> found = new LinkedHashSet<>();
        URI target = request.getURI();
        keys.render(target.getRawPath(), target.getRawQuery(), request.getHeaders()).ifPresent(found::add);
        for (String header : new String[] { HttpHeaders.LOCATION, HttpHeaders.CONTENT_LOCATION }) {
            String value = answer.getFirst(header);
            URI named = value != null ? resolve(target, value) : null;
            if (named != null && sameOrigin(target, named) && named.getRawPath() != null) {
                keys.render(named.getRawPath(), named.getRawQuery(), request.getHeaders()).ifPresent(found::add);
            }
        }
        return found;
    }

    private static @Nullable URI resolve(URI target, String reference) {
        try {
            return target.resolve(reference.trim());
        }
        catch (IllegalArgumentException ex) {
            return null;
        }
    }

    private static boolean sameOrigin(URI target, URI named) {
        return Objects.equals(target.getScheme(), named.getScheme())
                && Objects.equals(target.getHost(), named.getHost()) && target.getPort() == named.getPort();
    }

}
