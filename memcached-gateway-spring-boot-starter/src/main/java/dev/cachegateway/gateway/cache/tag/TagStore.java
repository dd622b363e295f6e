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

    /**
     * How far apart the replicas' clocks may be, as NTP keeps them: a purge whose mark
     * says it began up to this long before a fetch counts as having come during it.
     */
    static final long CLOCK_SKEW = 100;

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
        CachedItem mark = new CachedItem(Long.toString(System.currentTimeMillis()).getBytes(StandardCharsets.US_ASCII),
                0);
        return memcached.set(TagKey.purgedMarkOf(name), MARK_SECONDS, mark)
            .then(memcached.incr(key, step)
                .switchIfEmpty(Mono.defer(() -> memcached.add(key, 0, Generation.item(initial))
                    .flatMap(added -> added ? Mono.just(initial) : memcached.incr(key, step)))));
    }

    /**
     * Whether the last purge of {@code name} began before {@code millis} (wall clock), by
     * more than {@link #CLOCK_SKEW}; true without a mark, which lives longer than any
     * fetch that may still store.
     */
    Mono<Boolean> lastPurgeBefore(String name, long millis) {
        return memcached.get(TagKey.purgedMarkOf(name))
            .map(mark -> Generation.of(mark) < millis - CLOCK_SKEW)
            .defaultIfEmpty(true);
    }

}
