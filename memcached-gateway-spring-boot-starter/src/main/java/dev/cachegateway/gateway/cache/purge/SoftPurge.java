package dev.cachegateway.gateway.cache.purge;

import java.util.Optional;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.invalidate.KeyInvalidation;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * A soft purge of one key: its item turns stale rather than gone, so that it is served
 * inside its stale windows (as {@code UPDATING}, or as {@code STALE} while the backend
 * fails) while one replica refreshes it; without windows, the next request asks the
 * backend, and the others wait for its answer. memcached keeps the item for its longest
 * window from the purge, at least a second; a plain {@code get} reader (nginx, PHP) sees
 * no mark, and serves the item as it is until then.
 */
public final class SoftPurge {

    /** What a soft purge did to a key. */
    public enum Outcome {

        /** memcached held no item. */
        ABSENT,
        /** The item is stale. */
        SOFTENED,
        /**
         * The item holds one variant of an answer that varies, and was purged hard: the
         * other variants, which a purge cannot name, go with it.
         */
        PURGED

    }

    private final ReactiveMemcached memcached;

    private final KeyInvalidation keys;

    public SoftPurge(ReactiveMemcached memcached, KeyInvalidation keys) {
        this.memcached = memcached;
        this.keys = keys;
    }

    /** Purges {@code key} softly; fails if memcached fails. */
    public Mono<Outcome> purge(String key) {
        // A plain get: a meta lookup could take from a real one the right to refresh it.
        return memcached.get(key).map(Optional::of).defaultIfEmpty(Optional.empty()).flatMap(found -> {
            if (found.isPresent() && Variants.heldIn(found.get().value())) {
                return keys.invalidate(key).thenReturn(Outcome.PURGED);
            }
            return keys.soften(key, keepSeconds(found)).map(held -> held ? Outcome.SOFTENED : Outcome.ABSENT);
        });
    }

    // memcached's T0 would keep the item forever.
    private static int keepSeconds(Optional<CachedItem> found) {
        return (int) Math.max(1, found.map(item -> StaleFlags.decode(item.flags()).longest()).orElse(0L));
    }

}
