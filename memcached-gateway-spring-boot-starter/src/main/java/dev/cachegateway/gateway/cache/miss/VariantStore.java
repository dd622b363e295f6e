package dev.cachegateway.gateway.cache.miss;

import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * Stores a variant of an answer that varies ({@link Variants}): under its own key, and
 * under the primary key, where lookups start. It keeps the primary item's epoch, so that
 * the variants stored beside it stay reachable, and makes a new one when there is no
 * primary item.
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
     * Stores a captured variant, and hands {@code whenDone} the keys it stored under once
     * both stores have ended, and whether memcached took both; it is handed none if the
     * variant could not be stored.
     */
    void store(String key, CapturedResponse captured, int flags, int ttlSeconds, long askedAt,
            BiConsumer<List<String>, Boolean> whenDone) {
        epochOf(key).subscribe(found -> store(key, captured, found, flags, ttlSeconds, askedAt, whenDone),
                failure -> whenDone.accept(List.of(), false));
    }

    /**
     * The same, once the primary item's epoch was read as {@code found}. With none found,
     * the primary item is only added, so that two replicas storing the first variants at
     * once agree on one epoch: the one that finds it taken reads the epoch again and
     * stores under that, rather than orphan the variants stored under it.
     */
    void store(String key, CapturedResponse captured, Optional<String> found, int flags, int ttlSeconds, long askedAt,
            BiConsumer<List<String>, Boolean> whenDone) {
        String epoch = found.orElseGet(Variants::newEpoch);
        Optional<String> own = Variants.keyOf(key, captured.headers(), epoch);
        if (own.isEmpty()) {
            // A primary key too long to hold a variant's beside it: the variant is not
            // stored.
            whenDone.accept(List.of(), false);
            return;
        }
        CachedItem item = encode(captured, epoch, flags, askedAt);
        if (found.isPresent()) {
            storeBoth(own.get(), key, item, ttlSeconds, whenDone);
            return;
        }
        store.add(key, item, ttlSeconds, added -> {
            if (added) {
                store.store(own.get(), item, ttlSeconds, taken -> whenDone.accept(List.of(own.get(), key), taken));
                return;
            }
            // Taken by another replica's first variant, or a non-varying item there: the
            // epoch it holds, if any.
            epochOf(key).subscribe(again -> {
                String now = again.orElse(epoch);
                Variants.keyOf(key, captured.headers(), now)
                    .ifPresentOrElse(ownNow -> storeBoth(ownNow, key, encode(captured, now, flags, askedAt), ttlSeconds,
                            whenDone), () -> whenDone.accept(List.of(), false));
            }, failure -> whenDone.accept(List.of(), false));
        });
    }

    // A plain get: a meta lookup could take from a real one the right to refresh an
    // invalidated item.
    private Mono<Optional<String>> epochOf(String key) {
        return memcached.get(key)
            .map(found -> format.decode(found).map(decoded -> decoded.stored().headers()).flatMap(Variants::epoch))
            .onErrorReturn(Optional.empty())
            .defaultIfEmpty(Optional.empty());
    }

    private CachedItem encode(CapturedResponse captured, String epoch, int flags, long askedAt) {
        HttpHeaders headers = HttpHeaders.copyOf(captured.headers());
        headers.set(Variants.HEADER, Variants.value(captured.headers(), epoch));
        return format.encode(new CapturedResponse(captured.status(), headers, captured.body()), flags, askedAt);
    }

    private void storeBoth(String own, String key, CachedItem item, int ttlSeconds,
            BiConsumer<List<String>, Boolean> whenDone) {
        AtomicInteger left = new AtomicInteger(2);
        AtomicBoolean bothTaken = new AtomicBoolean(true);
        Consumer<Boolean> oneDone = taken -> {
            if (!taken) {
                bothTaken.set(false);
            }
            if (left.decrementAndGet() == 0) {
                whenDone.accept(List.of(own, key), bothTaken.get());
            }
        };
        store.store(own, item, ttlSeconds, oneDone);
        store.store(key, item, ttlSeconds, oneDone);
    }

}
