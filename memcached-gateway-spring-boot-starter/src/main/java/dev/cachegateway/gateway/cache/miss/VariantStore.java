package dev.cachegateway.gateway.cache.miss;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;

import org.springframework.http.HttpHeaders;

/**
 * Stores a variant of an answer that varies ({@link Variants}): under its own key, and under the primary key, where
 * lookups start. It keeps the primary item's epoch, so that the variants stored beside it stay reachable, and makes
 * a new one when there is no primary item.
 */
final class VariantStore {

    private final ReactiveMemcached memcached;

    private final ResponseStore store;

    private final ItemFormat format;

    VariantStore(ReactiveMemcached memcached, ResponseStore store, ItemFormat format) {
        this.memcached = memcached;
        this.store = store;
        this.format = format;
    }

    /**
     * Stores a captured variant, and hands {@code whenDone} the keys it stored under once both stores have ended,
     * whatever became of them; it is handed none if the variant could not be stored.
     */
    void store(String key, CapturedResponse captured, int flags, int ttlSeconds, long askedAt,
            Consumer<List<String>> whenDone) {
        // A plain get: a meta lookup could take from a real one the right to refresh an invalidated item.
        memcached.get(key)
                .map(found -> format.decode(found).map(decoded -> decoded.stored().headers()).flatMap(Variants::epoch))
                .onErrorReturn(Optional.empty())
                .defaultIfEmpty(Optional.empty())
                .subscribe(epoch -> store(key, captured, epoch.orElseGet(Variants::newEpoch), flags, ttlSeconds,
                        askedAt, whenDone), failure -> whenDone.accept(List.of()));
    }

    private void store(String key, CapturedResponse captured, String epoch, int flags, int ttlSeconds,
            long askedAt, Consumer<List<String>> whenDone) {
        Optional<String> own = Variants.keyOf(key, captured.headers(), epoch);
        if (own.isEmpty()) {
            // A primary key too long to hold a variant's beside it: the variant is not stored.
            whenDone.accept(List.of());
            return;
        }
        HttpHeaders headers = HttpHeaders.copyOf(captured.headers());
        headers.set(Variants.HEADER, Variants.value(captured.headers(), epoch));
        CachedItem item = format.encode(new CapturedResponse(captured.status(), headers, captured.body()), flags,
                askedAt);
        AtomicInteger left = new AtomicInteger(2);
        Runnable oneDone = () -> {
            if (left.decrementAndGet() == 0) {
                whenDone.accept(List.of(own.get(), key));
            }
        };
        store.store(own.get(), item, ttlSeconds, oneDone);
        store.store(key, item, ttlSeconds, oneDone);
    }
}
