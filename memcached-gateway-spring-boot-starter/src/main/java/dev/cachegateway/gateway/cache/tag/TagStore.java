package dev.cachegateway.gateway.cache.tag;

import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.cache.key.TagKey;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * The generations in memcached, and the marks that purges leave. A generation never
 * expires: what memcached evicts reads as absent, and the items stored under it as
 * purged.
 */
final class TagStore {

    /**
     * How long a purge's mark lives, in seconds: far longer than a fetch that may still
     * store (a fetch is given up after the lock timeout, or 50 s at most).
     */
    static final int MARK_SECONDS = 60;

    /** What {@link #purgedAgo} says of a tag whose mark is gone, or was never made. */
    static final long LONG_AGO = Long.MAX_VALUE;

    private static final CachedItem MARK = new CachedItem("1".getBytes(StandardCharsets.US_ASCII), 0);

    private final ReactiveMemcached memcached;

    TagStore(ReactiveMemcached memcached) {
        this.memcached = memcached;
    }

    /** The generation of {@code name}, {@link Generation#ABSENT} if there is none. */
    Mono<Long> read(String name) {
        String key = TagKey.of(name);
        return memcached.get(key).map(Generation::of).defaultIfEmpty(Generation.ABSENT);
    }

    /**
     * The generation of {@code name}, made at random if there is none; empty if another
     * replica made one and it was gone again before it could be read.
     */
    Mono<Long> readOrMake(String name) {
        String key = TagKey.of(name);
        return read(name).flatMap(found -> {
            if (found != Generation.ABSENT) {
                return Mono.just(found);
            }
            long made = Generation.random();
            return memcached.add(key, 0, Generation.item(made))
                .flatMap(added -> added ? Mono.just(made) : read(name))
                .filter(value -> value != Generation.ABSENT);
        });
    }

    /**
     * Marks a purge of {@code name}, then moves its generation by {@code step}; the new
     * generation. With none in memcached a new one is made, which purges as a hard purge
     * does; when two replicas both find none, the one whose add loses adds its step to
     * the other's.
     */
    Mono<Long> purge(String name, long step) {
        String key = TagKey.of(name);
        long initial = Generation.random();
        return memcached.set(TagKey.purgedMarkOf(name), MARK_SECONDS, MARK)
            .then(memcached.incr(key, step)
                .switchIfEmpty(Mono.defer(() -> memcached.add(key, 0, Generation.item(initial))
                    .flatMap(added -> added ? Mono.just(initial) : memcached.incr(key, step)))));
    }

    /**
     * How many whole seconds ago {@code name} was last purged, as memcached tells by the
     * mark's remaining TTL; 0 where memcached cannot tell the TTL (no meta commands), and
     * {@link #LONG_AGO} without a mark.
     */
    Mono<Long> purgedAgo(String name) {
        return memcached.lookup(TagKey.purgedMarkOf(name), 0)
            .map(mark -> mark.ttlKnown() ? Math.max(0, MARK_SECONDS - mark.remainingTtlSeconds()) : 0L)
            .defaultIfEmpty(LONG_AGO);
    }

}
