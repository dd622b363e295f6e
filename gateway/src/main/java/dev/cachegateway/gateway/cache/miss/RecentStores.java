package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The keys whose answers a leading miss stored in memcached lately, each for at least {@link #WINDOW} and at most
 * twice that. Two generations turn over once per window, so that nothing is ever swept on a request's path and a
 * burst of fresh keys costs one map entry each, gone two windows later.
 */
final class RecentStores {

    /** Longer than a lookup takes, from memcached's answer to the request's turn to lead. */
    static final Duration WINDOW = Duration.ofSeconds(2);

    private static final long WINDOW_NANOS = WINDOW.toNanos();

    private volatile Generations generations = new Generations(new ConcurrentHashMap<>(), new ConcurrentHashMap<>(),
            System.nanoTime());

    /** Notes that a lead stored the answer for {@code key} now. */
    void remember(String key) {
        long now = System.nanoTime();
        at(now).current().put(key, now);
    }

    /** Whether a lead stored the answer for {@code key} within the window. */
    boolean storedLately(String key) {
        long now = System.nanoTime();
        Generations live = at(now);
        Long stored = live.current().get(key);
        if (stored == null) {
            stored = live.previous().get(key);
        }
        return stored != null && now - stored < WINDOW_NANOS;
    }

    // The generation turns over once a window has passed: the one before the previous holds nothing recent.
    private Generations at(long now) {
        Generations seen = generations;
        if (now - seen.startedAt() < WINDOW_NANOS) {
            return seen;
        }
        // Once per window, and brief: another thread may have turned it over while this one waited.
        synchronized (this) {
            Generations latest = generations;
            if (now - latest.startedAt() >= WINDOW_NANOS) {
                latest = new Generations(new ConcurrentHashMap<>(), latest.current(), now);
                generations = latest;
            }
            return latest;
        }
    }

    private record Generations(ConcurrentMap<String, Long> current, ConcurrentMap<String, Long> previous,
            long startedAt) {
    }
}
