package dev.cachegateway.gateway.cache;

import java.util.Map;
import java.util.Optional;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import reactor.core.publisher.Mono;
import reactor.util.retry.Retry;

import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.boot.actuate.endpoint.web.WebEndpointResponse;

/**
 * Invalidation for operators, on the management port only:
 * {@code DELETE /actuator/memcached/api/v1/comments/1} deletes the item of that path (its
 * {@code $uri} key, derived as for a request), and
 * {@code DELETE /actuator/memcached?key=...} deletes any key as it is written. Either
 * also drops the item from this gateway's near-cache.
 */
@Endpoint(id = "memcached")
class MemcachedCacheEndpoint {

    private static final CacheKeyTemplate PATH_KEY = CacheKeyTemplate.parse("$uri");

    private final ReactiveMemcached memcached;

    private final NearCache nearCache;

    MemcachedCacheEndpoint(ReactiveMemcached memcached, NearCache nearCache) {
        this.memcached = memcached;
        this.nearCache = nearCache;
    }

    @DeleteOperation
    Mono<WebEndpointResponse<Map<String, Object>>> deletePath(@Selector(match = Match.ALL_REMAINING) String[] path) {
        return delete(PATH_KEY.render("/" + String.join("/", path), null));
    }

    @DeleteOperation
    Mono<WebEndpointResponse<Map<String, Object>>> deleteKey(String key) {
        return delete(Optional.of(key).filter(MemcachedLimits::isValidKey));
    }

    private Mono<WebEndpointResponse<Map<String, Object>>> delete(Optional<String> valid) {
        if (valid.isEmpty()) {
            return Mono.just(new WebEndpointResponse<>(Map.of("error", "not a valid memcached key"),
                    WebEndpointResponse.STATUS_BAD_REQUEST));
        }
        String key = valid.get();
        // This gateway's near-cache forgets the item at once; other replicas' keep it for
        // up to their TTL.
        nearCache.invalidate(key);
        // A delete given up on because this gateway was paused past its longest wait
        // says nothing of memcached, and may have landed or not: it is sent once more,
        // as a delete may be, rather than answered 503.
        return memcached.delete(key)
            .retryWhen(Retry.max(1)
                .filter(GatewayDelayException.class::isInstance)
                .onRetryExhaustedThrow((spec, signal) -> signal.failure()))
            .map(deleted -> new WebEndpointResponse<Map<String, Object>>(Map.of("key", key, "deleted", deleted)))
            .onErrorResume(failure -> Mono.just(new WebEndpointResponse<>(
                    Map.of("key", key, "error", "memcached unavailable: " + failure.getClass().getSimpleName()),
                    WebEndpointResponse.STATUS_SERVICE_UNAVAILABLE)));
    }

}
