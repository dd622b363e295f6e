package dev.cachegateway.gateway.cache.tag;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

/**
 * A purge of every item stored with a tag, in two memcached operations whatever the
 * number of items: a mark of when the purge began is left, then the tag's generation
 * moves, by 2^32 (hard: its items are never served again) or by 1 (soft: they turn stale
 * from now, so that they are served inside their stale windows while one replica
 * refreshes each). Every replica learns of it within its refresh interval, this one at
 * once.
 */
public final class TagPurge {

    private final TagStore store;

    private final TagGenerations generations;

    public TagPurge(ReactiveMemcached memcached, TagGenerations generations) {
        this.store = new TagStore(memcached);
        this.generations = generations;
    }

    /**
     * Purges the items stored with {@code tag}, hard or {@code soft}; the tag's new
     * generation. Fails if memcached fails.
     */
    public Mono<Long> purge(String tag, boolean soft) {
        return store.purge(tag, soft ? Generation.SOFT_STEP : Generation.HARD_STEP)
            .doOnNext(generation -> generations.purged(tag, generation));
    }

}
