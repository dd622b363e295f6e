package dev.cachegateway.gateway.cache.invalidate;

import java.net.URI;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.StoresUnderWay;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
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
 * that is a {@code delete} of the keys the route's template makes of them, so that no
 * replica and no plain {@code get} reader (nginx, PHP) serves the old item again, and
 * this gateway's near-cache forgets it; other replicas' near-caches keep theirs for up to
 * their TTL, as after a purge. Before each delete the write leaves its mark
 * ({@link WriteFences}), so that no fetch that asked the backend before the write, on any
 * replica, stores its answer over it or shares it with a request that arrives after it.
 * The marks and deletes go out before the answer does, so a client that reads right after
 * its write never gets the old item from memcached. A memcached that fails them costs the
 * answer nothing but the wait, and they are sent again until it takes them
 * ({@link OwedDeletes}).
 */
public final class WriteInvalidation implements AutoCloseable {

    // RFC 9110 9.2.1; every other method, one this gateway has never heard of included,
    // may change the resource.
    private static final Set<HttpMethod> SAFE = Set.of(HttpMethod.GET, HttpMethod.HEAD, HttpMethod.OPTIONS,
            HttpMethod.TRACE);

    private static final BurstLog failures = BurstLog.of(WriteInvalidation.class);

    private final ReactiveMemcached memcached;

    private final NearCache near;

    private final InFlightRequests inFlight;

    private final WriteFences fences;

    private final StoresUnderWay stores;

    private final OwedDeletes owed;

    public WriteInvalidation(ReactiveMemcached memcached, NearCache near, InFlightRequests inFlight, WriteFences fences,
            StoresUnderWay stores, MeterRegistry registry) {
        this.memcached = memcached;
        this.near = near;
        this.inFlight = inFlight;
        this.fences = fences;
        this.stores = stores;
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
        inFlight.forget(key);
        near.invalidate(key);
        return invalidate(key).doOnNext(taken -> owed.settle(key, taken));
    }

    // The mark, then the item, then the lock; true if memcached took the mark and the
    // delete, and never fails.
    private Mono<Boolean> invalidate(String key) {
        Mono<Boolean> mark = fences.mark(key).thenReturn(true).onErrorResume(failure -> {
            failures.warn("memcached failed to mark a write to " + key + "; marked again once it answers", failure);
            return Mono.just(false);
        });
        // A store that passed its last check before the mark said "storing" before that
        // check: the write waits for it to end, then deletes what it stored. The lock
        // goes last: a replica that waits on it then looks for an item that is gone, and
        // claims the lock anew rather than waiting out a lock no fetch after the write
        // holds.
        return mark.flatMap(marked -> stores.await(key)
            .then(memcached.delete(key))
            .flatMap(found -> memcached.delete(LockKey.of(key)).onErrorReturn(false))
            .thenReturn(marked)
            .onErrorResume(failure -> {
                failures.warn(
                        "memcached failed to delete " + key + " after a write; deleted again once it" + " answers",
                        failure);
                return Mono.just(false);
            }));
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
