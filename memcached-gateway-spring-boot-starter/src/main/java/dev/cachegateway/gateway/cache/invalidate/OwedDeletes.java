package dev.cachegateway.gateway.cache.invalidate;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.cachegateway.gateway.logging.BurstLog;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * The invalidations that writes owe memcached. A write whose mark or delete memcached
 * failed (it was down, paused, behind an open breaker, or this gateway was paused past
 * the operation's deadline) has answered its client all the same, and the item from
 * before it would be served again, by every replica, once memcached answers. So each owed
 * key is marked and deleted again every {@link #RETRY} until memcached takes it: the old
 * item outlives the outage by one round at most, not until it expires. A later write of
 * the key that memcached takes pays its debt too.
 */
final class OwedDeletes implements AutoCloseable {

    static final Duration RETRY = Duration.ofMillis(250);

    // Bounds the memory an outage under a stream of writes can take; past it a write's
    // item expires on its own.
    static final int MAX_KEYS = 10_000;

    // How many keys one round sends at once, so that a long outage's debt does not flood
    // memcached when it returns.
    private static final int CONCURRENCY = 16;

    private static final BurstLog failures = BurstLog.of(OwedDeletes.class);

    private static final Logger log = LoggerFactory.getLogger(OwedDeletes.class);

    private static final IllegalStateException FULL = new IllegalStateException(
            "no room for more owed invalidations; the item expires on its own");

    private final Map<String, Boolean> owed = new ConcurrentHashMap<>();

    private final Function<String, Mono<Boolean>> invalidate;

    private final Disposable rounds;

    /**
     * @param invalidate marks and deletes a key: true once memcached took both
     */
    OwedDeletes(Function<String, Mono<Boolean>> invalidate, MeterRegistry registry) {
        this.invalidate = invalidate;
        Gauge.builder("memcached.cache.invalidations.owed", owed, Map::size)
            .description("Keys whose write memcached failed to invalidate, invalidated again until it does")
            .register(registry);
        // One round at a time; a tick that finds a round still running is dropped.
        this.rounds = Flux.interval(RETRY, RETRY).onBackpressureDrop().concatMap(tick -> retry(), 1).subscribe(done -> {
        }, failure -> failures.warn("owed invalidations stopped", failure));
    }

    /**
     * What became of a write's invalidation of {@code key}: owed until memcached takes
     * it, or paid.
     */
    void settle(String key, boolean taken) {
        if (taken) {
            owed.remove(key);
        }
        else if (owed.size() < MAX_KEYS) {
            owed.put(key, Boolean.TRUE);
        }
        else {
            failures.warn(MAX_KEYS + " writes owe memcached an invalidation already, and so does one of " + key, FULL);
        }
    }

    /** How many keys are owed now. */
    int size() {
        return owed.size();
    }

    private Mono<Void> retry() {
        if (owed.isEmpty()) {
            return Mono.empty();
        }
        return Flux.fromIterable(List.copyOf(owed.keySet()))
            .flatMap(key -> invalidate.apply(key)
                .filter(taken -> taken)
                .doOnNext(taken -> owed.remove(key))
                .map(taken -> key), CONCURRENCY)
            .collectList()
            .doOnNext(OwedDeletes::reportPaid)
            .then();
    }

    // One line a round, and only for a round that paid something: an item stored since
    // the write went with the old one, and is fetched again.
    private static void reportPaid(List<String> paid) {
        if (!paid.isEmpty()) {
            log.info("Invalidated {} key(s) again that writes owed memcached, such as {}", paid.size(),
                    paid.subList(0, Math.min(3, paid.size())));
        }
    }

    @Override
    public void close() {
        rounds.dispose();
    }

}
