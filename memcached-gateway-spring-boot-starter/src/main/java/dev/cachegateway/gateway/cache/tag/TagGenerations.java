package dev.cachegateway.gateway.cache.tag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.cachegateway.gateway.cache.key.TagKey;
import dev.cachegateway.gateway.cache.tag.ItemTags.Stamp;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * What this replica knows of the current generation of each tag it has seen
 * ({@link TagKey}), read again from memcached every refresh interval, so that a purge
 * through any replica reaches this one within that interval and a round trip. A
 * generation not confirmed for a second (memcached failing) is unknown, and read again
 * before an item with it is served. A tag unused for a minute is forgotten.
 */
public final class TagGenerations implements AutoCloseable {

    /** What an item's tags say of it now. */
    public enum Verdict {

        /** Stored under the current generations, or with no tags. */
        VALID,
        /** A soft purge of one of its tags came since: stale from now. */
        SOFTENED,
        /** A hard purge of one of its tags came since, or a generation was evicted. */
        PURGED,
        /** A generation is not known here yet: read it, then ask again. */
        UNKNOWN

    }

    private final TagStore store;

    private final Duration refreshEvery;

    // A generation read longer ago than this is not trusted: two refreshes failed.
    private final long confirmWithin;

    private final Cache<String, Known> known = Caffeine.newBuilder()
        .maximumSize(100_000)
        .expireAfter(new UnusedTags(Duration.ofMinutes(1)))
        .build();

    private volatile @Nullable Disposable refreshing;

    public TagGenerations(ReactiveMemcached memcached, Duration refreshEvery) {
        this.store = new TagStore(memcached);
        this.refreshEvery = refreshEvery;
        this.confirmWithin = Math.max(Duration.ofSeconds(1).toNanos(), 2 * refreshEvery.toNanos());
    }

    /** Starts refreshing. */
    public void start() {
        refreshing = Flux.interval(refreshEvery, refreshEvery)
            .onBackpressureDrop()
            .concatMap(tick -> refreshOnce().onErrorResume(failure -> Mono.empty()), 1)
            .subscribe();
    }

    @Override
    public void close() {
        Disposable running = refreshing;
        if (running != null) {
            running.dispose();
        }
    }

    /**
     * What {@code tags} say of their item now, by what this replica knows; the item was
     * read from memcached no earlier than {@code readSince} ({@link System#nanoTime()}).
     */
    public Verdict verdict(ItemTags tags, long readSince) {
        if (tags.none()) {
            return Verdict.VALID;
        }
        if (!tags.readable()) {
            return Verdict.PURGED;
        }
        long now = System.nanoTime();
        Verdict verdict = Verdict.VALID;
        for (Stamp stamp : tags.stamps()) {
            Known current = known.getIfPresent(stamp.name());
            if (current == null || mustRead(stamp, current, now, readSince)) {
                verdict = Verdict.UNKNOWN;
            }
            else if (current.generation() != stamp.generation()) {
                if (Generation.purgedSince(stamp.generation(), current.generation())) {
                    return Verdict.PURGED;
                }
                verdict = verdict == Verdict.VALID ? Verdict.SOFTENED : verdict;
            }
        }
        return verdict;
    }

    /**
     * The {@link #verdict} of {@code tags}, once the generations it cannot judge them by
     * are read: never {@link Verdict#UNKNOWN} unless memcached failed to tell them.
     */
    public Mono<Verdict> judge(ItemTags tags, long readSince) {
        Verdict now = verdict(tags, readSince);
        return now != Verdict.UNKNOWN ? Mono.just(now)
                : learn(tags, readSince).then(Mono.fromSupplier(() -> verdict(tags, readSince)));
    }

    // Reads the generations that verdict cannot judge the tags by: not known, or
    // differing from the item's and read before the item was.
    private Mono<Void> learn(ItemTags tags, long readSince) {
        long now = System.nanoTime();
        return load(tags.stamps().stream().filter(stamp -> {
            Known current = known.getIfPresent(stamp.name());
            return current == null || mustRead(stamp, current, now, readSince);
        }).map(Stamp::name).toList());
    }

    /** What this replica knows of {@code name}'s generation, if anything. */
    @Nullable Known known(String name) {
        return known.getIfPresent(name);
    }

    /** Where the generations are. */
    TagStore store() {
        return store;
    }

    /** A generation that this replica's purge made. */
    void purged(String name, long generation) {
        observe(name, generation, System.nanoTime());
    }

    // A generation not confirmed lately, or memcached's absent one, is read before an
    // item is judged by it; and so is one that differs from the item's but was read
    // before the item was: the item may have been stored by a replica that learned of a
    // purge (or of a generation memcached lost) before this one did. Read after the
    // item, it is at least as new as the item's, and a different one means a purge came
    // since.
    private boolean mustRead(Stamp stamp, Known current, long now, long readSince) {
        return current.generation() == Generation.ABSENT || now - current.confirmedAt() > confirmWithin
                || current.generation() != stamp.generation() && current.confirmedAt() - readSince < 0;
    }

    private Mono<Void> load(List<String> names) {
        return Flux.fromIterable(names).flatMap(name -> Mono.defer(() -> {
            long sent = System.nanoTime();
            return store.readOrMake(name).doOnNext(generation -> observe(name, generation, sent));
        })).then();
    }

    private Mono<Void> refreshOnce() {
        List<String> names = List.copyOf(known.asMap().keySet());
        if (names.isEmpty()) {
            return Mono.empty();
        }
        return Flux.fromIterable(names).flatMap(name -> Mono.defer(() -> {
            long sent = System.nanoTime();
            return store.read(name)
                .doOnNext(generation -> known.asMap()
                    .computeIfPresent(name, (tag, previous) -> previous.after(generation, sent, System.nanoTime())))
                .onErrorResume(failure -> Mono.empty());
        })).then();
    }

    /** A generation as a read sent at {@code sent} found it. */
    void observe(String name, long generation, long sent) {
        long now = System.nanoTime();
        known.asMap()
            .compute(name, (tag, previous) -> previous != null ? previous.after(generation, sent, now)
                    : Known.first(generation, sent, now));
    }

}
