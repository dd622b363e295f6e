package dev.cachegateway.gateway.cache.miss;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

import dev.cachegateway.gateway.cache.key.WriteMarkKey;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * A write wins over a fetch that began before it, on every replica that shares memcached.
 * A write leaves a mark, a random word under a key of its own ({@link WriteMarkKey}),
 * before it deletes the item; a fetch reads the mark before it asks the backend (its
 * {@link Fence}), and again before and after it stores. A mark that changed, or vanished,
 * means that a write came in between: the fetch's answer may predate it, so it is not
 * stored, and a store that landed anyway is taken back. The page key itself is never
 * touched, since nginx reads it.
 */
public final class WriteFences {

    /**
     * How long a mark lives, in seconds: far longer than any fetch that may still store.
     */
    static final int MARK_SECONDS = 60;

    // A fetch older than this never stores: a mark made when it began could have expired
    // since, and read as none.
    static final Duration MAX_FETCH = Duration.ofSeconds(MARK_SECONDS - 10);

    private static final String NO_MARK = "";

    private final ReactiveMemcached memcached;

    public WriteFences(ReactiveMemcached memcached) {
        this.memcached = memcached;
    }

    /**
     * Marks a write to {@code key}; done before its item is deleted, so that no fetch
     * from before it stores.
     */
    public Mono<Boolean> mark(String key) {
        String word = Long.toHexString(ThreadLocalRandom.current().nextLong() | Long.MIN_VALUE);
        return memcached.set(WriteMarkKey.of(key), MARK_SECONDS,
                new CachedItem(word.getBytes(StandardCharsets.US_ASCII), 0));
    }

    /**
     * The fence of a fetch of {@code key} that is about to ask the backend; never fails.
     */
    public Mono<Fence> take(String key) {
        long takenAt = System.nanoTime();
        return read(key).map(mark -> new Fence(key, mark, takenAt)).onErrorReturn(new Fence(key, null, takenAt));
    }

    /**
     * Whether the answer of the fetch that took {@code fence} may be stored: no write was
     * marked since, as far as memcached can say. A mark that cannot be read forbids the
     * store.
     */
    public Mono<Boolean> allowsStore(Fence fence) {
        if (System.nanoTime() - fence.takenAt() > MAX_FETCH.toNanos()) {
            return Mono.just(false);
        }
        return unmarkedSince(fence);
    }

    /**
     * Whether a request that arrives now may take the answer of the fetch that took
     * {@code fence}: no write was marked since. A mark that cannot be read, when the
     * fetch began or now, forbids it: a write may have marked memcached just before it
     * began failing, and only the mark can tell. While memcached fails, such a request
     * asks the backend itself.
     */
    public Mono<Boolean> allowsJoining(Fence fence) {
        return unmarkedSince(fence);
    }

    // The mark is as the fence saw it; false if memcached could not say, then or now.
    private Mono<Boolean> unmarkedSince(Fence fence) {
        String mark = fence.mark();
        if (mark == null) {
            return Mono.just(false);
        }
        return read(fence.key()).map(mark::equals).onErrorReturn(false);
    }

    private Mono<String> read(String key) {
        return memcached.get(WriteMarkKey.of(key))
            .map(item -> new String(item.value(), StandardCharsets.US_ASCII))
            .defaultIfEmpty(NO_MARK);
    }

    /**
     * What a fetch saw before it asked the backend.
     *
     * @param key the page key it fetches
     * @param mark the write mark then, empty for none, or null if memcached could not say
     * @param takenAt when, by {@link System#nanoTime()}
     */
    public record Fence(String key, @Nullable String mark, long takenAt) {
    }

}
