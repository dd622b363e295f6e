package dev.cachegateway.gateway.cache;

import java.time.Duration;

import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.slf4j.LoggerFactory;

/**
 * Writes captured answers to memcached in the background. Nobody waits for a store: a failed one costs a later
 * miss, never a request.
 */
final class ResponseStore {

    private static final BurstLog failures =
            new BurstLog(LoggerFactory.getLogger(ResponseStore.class), Duration.ofSeconds(10));

    private final ReactiveMemcached memcached;

    ResponseStore(ReactiveMemcached memcached) {
        this.memcached = memcached;
    }

    void store(String key, CapturedResponse response) {
        StoreDecision decision = response.decision();
        memcached.set(key, decision.ttlSeconds(), new CachedItem(response.body(), decision.flags()))
                .subscribe(stored -> { }, failure -> failures.warn("memcached store failed, item not cached", failure));
    }
}
