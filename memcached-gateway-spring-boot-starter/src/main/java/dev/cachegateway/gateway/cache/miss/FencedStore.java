package dev.cachegateway.gateway.cache.miss;

import java.util.List;
import java.util.Optional;
import java.util.function.BiConsumer;

import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Drop;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.StampedAnswers;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.trace.CacheSpan;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Stores a fetched answer unless a write to its key came after the fetch asked the
 * backend ({@link WriteFences}). The fence is read before the store and again after it: a
 * write that lands in between, while the store is on its way, has its mark seen by the
 * second read, and the items just stored are deleted again. The requests waiting for the
 * store are let go once it has ended, as without a fence: the second read only narrows
 * that rare window.
 */
final class FencedStore {

    private final ItemFormat format;

    private final ResponseStore store;

    private final VariantStore variants;

    private final WriteFences fences;

    private final ReactiveMemcached memcached;

    private final NearCache near;

    private final CacheMetrics metrics;

    private final StampedAnswers tags;

    FencedStore(ItemFormat format, ResponseStore store, WriteFences fences, ReactiveMemcached memcached, NearCache near,
            TagGenerations tags, CacheMetrics metrics) {
        this.format = format;
        this.store = store;
        this.variants = new VariantStore(memcached, store, format);
        this.fences = fences;
        this.memcached = memcached;
        this.near = near;
        this.metrics = metrics;
        this.tags = new StampedAnswers(tags);
    }

    /**
     * Stores {@code captured} as {@code decision} says and tells {@code waiters} once
     * memcached took it, or that it did not or will not. The waiters say "storing" in the
     * key's lock first: a write that reads that waits for the store to end before it
     * deletes the item again ({@link StoresUnderWay}); where they cannot, another
     * replica's fetch stores its answer instead. {@code askedAt} is when the backend was
     * asked: the answer's age counts from then, not from when memcached took the store,
     * which the checks before it can stretch over seconds. The answer is stored with the
     * generations of {@code tagNames} where its format records them. {@code span} is told
     * what came of it, and stopped.
     */
    void store(String key, CapturedResponse answer, StoreDecision decision, Fence fence, Waiters waiters, long askedAt,
            List<String> tagNames, CacheSpan span) {
        Runnable begun = store.begin();
        Runnable ended = () -> {
            begun.run();
            span.end();
        };
        whyNot(fence, waiters).flatMap(dropped -> dropped.isPresent() ? Mono.just(new Admission(dropped, answer))
                : tags.stamp(answer, tagNames, format.storesTags(), fence.takenAt())
                    .map(stamped -> new Admission(Optional.empty(), stamped))
                    .defaultIfEmpty(new Admission(Optional.of(Drop.TAG_PURGED), answer)))
            .subscribe(admission -> {
                Optional<Drop> dropped = admission.dropped();
                CapturedResponse captured = admission.answer();
                if (dropped.isPresent()) {
                    span.result(CacheMetrics.tag(dropped.get()));
                    metrics.dropped(dropped.get());
                    waiters.dropped();
                    ended.run();
                    return;
                }
                BiConsumer<List<String>, Boolean> written = (keys, taken) -> {
                    span.result(taken ? "stored" : "failed");
                    if (taken) {
                        waiters.stored();
                    }
                    else {
                        waiters.dropped();
                    }
                    // A store that timed out may have landed all the same.
                    recheck(fence, keys, ended);
                };
                if (Variants.varies(captured.headers()) && format.storesVariants()) {
                    variants.store(key, captured, decision.flags(), decision.ttlSeconds(), askedAt, written);
                }
                else {
                    store.store(key, format.encode(captured, decision.flags(), askedAt), decision.ttlSeconds(),
                            taken -> written.accept(List.of(key), taken));
                }
            }, failure -> {
                span.error(failure);
                ended.run();
            });
    }

    private record Admission(Optional<Drop> dropped, CapturedResponse answer) {
    }

    // Empty if the store may go on, else why it may not.
    private Mono<Optional<Drop>> whyNot(Fence fence, Waiters waiters) {
        return waiters.storing()
            .flatMap(said -> !said ? Mono.just(Optional.of(Drop.LOCKED)) : fences.allowsStore(fence)
                .map(allowed -> allowed ? Optional.empty() : Optional.of(Drop.OVERTAKEN)));
    }

    private void recheck(Fence fence, List<String> keys, Runnable ended) {
        fences.allowsStore(fence).flatMapMany(allowed -> {
            if (allowed) {
                return Flux.<Boolean>empty();
            }
            metrics.dropped(Drop.OVERTAKEN);
            keys.forEach(near::invalidate);
            return Flux.fromIterable(keys).flatMap(key -> memcached.delete(key).onErrorReturn(false));
        }).doFinally(signal -> ended.run()).subscribe(deleted -> {
        }, failure -> {
        });
    }

}
