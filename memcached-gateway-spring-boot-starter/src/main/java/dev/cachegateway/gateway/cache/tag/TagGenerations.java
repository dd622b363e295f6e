package dev.cachegateway.gateway.cache.tag;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;

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

    /** What {@code tags} say of their item now, by what this replica knows. */
    public Verdict verdict(ItemTags tags) {
        if (tags.none()) {
            return Verdict.VALID;
        }
        if (!tags.readable()) {
            return Verdict.PURGED;
        }
        long now = System.nanoTime();
        Verdict verdict = Verdict.VALID;
        for (Stamp stamp : tags.stamps()) {
            Known current = confirmed(known.getIfPresent(stamp.name()), now);
            if (current == null) {
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

    /** Reads the generations of {@code tags} that this replica does not know. */
    public Mono<Void> learn(ItemTags tags) {
        long now = System.nanoTime();
        return load(tags.stamps()
            .stream()
            .map(Stamp::name)
            .filter(name -> confirmed(known.getIfPresent(name), now) == null)
            .toList());
    }

    /**
     * The stamps for an answer with {@code names} whose fetch asked the backend at
     * {@code since} ({@link System#nanoTime()}); empty if a purge of one of them may have
     * come since, so that the answer, which may predate it, is not stored. Known tags are
     * judged by when their generation changed here; others are read, then the marks of
     * their last purges, which a purge leaves before it moves the generation: a mark no
     * older than the fetch (memcached tells whole seconds) means that a purge may have
     * come in between.
     */
    public Mono<List<Stamp>> stamp(Collection<String> names, long since) {
        long now = System.nanoTime();
        List<String> unknown = new ArrayList<>();
        for (String name : names) {
            Known current = known.getIfPresent(name);
            if (current != null && current.changedAt() - since > 0) {
                return Mono.empty();
            }
            if (confirmed(current, now) == null) {
                unknown.add(name);
            }
        }
        if (unknown.isEmpty()) {
            return Mono.justOrEmpty(stamps(names));
        }
        long fetchSeconds = TimeUnit.NANOSECONDS.toSeconds(now - since) + 1;
        return load(unknown).thenMany(Flux.fromIterable(unknown).flatMap(store::purgedAgo))
            .all(ago -> ago > fetchSeconds)
            .flatMap(none -> none ? Mono.justOrEmpty(stamps(names)) : Mono.<List<Stamp>>empty());
    }

    /** A generation that this replica's purge made. */
    void purged(String name, long generation) {
        observe(name, generation);
    }

    private @Nullable List<Stamp> stamps(Collection<String> names) {
        long now = System.nanoTime();
        List<Stamp> stamps = new ArrayList<>(names.size());
        for (String name : names) {
            Known current = confirmed(known.getIfPresent(name), now);
            if (current == null) {
                return null;
            }
            stamps.add(new Stamp(name, current.generation()));
        }
        return stamps;
    }

    private Mono<Void> load(List<String> names) {
        return Flux.fromIterable(names)
            .flatMap(name -> store.readOrMake(name).doOnNext(generation -> observe(name, generation)))
            .then();
    }

    private Mono<Void> refreshOnce() {
        List<String> names = List.copyOf(known.asMap().keySet());
        if (names.isEmpty()) {
            return Mono.empty();
        }
        return Flux.fromIterable(names)
            .flatMap(name -> store.read(name)
                .doOnNext(generation -> known.asMap()
                    .computeIfPresent(name, (tag, previous) -> previous.after(generation, System.nanoTime())))
                .onErrorResume(failure -> Mono.empty()))
            .then();
    }

    private void observe(String name, long generation) {
        long now = System.nanoTime();
        known.asMap()
            .compute(name, (tag, previous) -> previous != null ? previous.after(generation, now)
                    : new Known(generation, now, now));
    }

    // An absent generation is never stamped: a store makes a new one first.
    private @Nullable Known confirmed(@Nullable Known current, long now) {
        return current == null || current.generation() == Generation.ABSENT
                || now - current.confirmedAt() > confirmWithin ? null : current;
    }

}
