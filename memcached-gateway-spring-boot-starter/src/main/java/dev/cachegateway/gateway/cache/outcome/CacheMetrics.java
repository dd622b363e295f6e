package dev.cachegateway.gateway.cache.outcome;

import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What the cache does, for Micrometer: {@code memcached.cache.lookups} by route and
 * result, which is the request's {@code X-Cache}, one of {@link XCache}'s values in lower
 * case (hit, miss, coalesced, bypass, error, updating, stale, expired, revalidated),
 * {@code memcached.cache.bypasses} by reason, and {@code memcached.cache.stores} by
 * result and reason. Every counter is made once, so counting costs a request no registry
 * lookup.
 */
public final class CacheMetrics {

    /** Why a request was not looked up. */
    public enum Bypass {

        /** A method other than GET or HEAD. */
        METHOD,
        /** A bypass header such as Authorization. */
        HEADER,
        /** No usable key: the path does not decode, or the key is over 250 bytes. */
        KEY

    }

    /** Why a storable answer did not reach memcached. */
    public enum Drop {

        /** Too many stores already waiting for memcached. */
        BUSY,
        /** The circuit breaker is open. */
        CIRCUIT_OPEN,
        /** memcached failed, timed out or refused the item. */
        FAILED,
        /**
         * A write to the key came after the backend was asked, so the answer may predate
         * it; or it could not tell.
         */
        OVERTAKEN,
        /**
         * Another replica fetches or stores the key, and its answer is the one memcached
         * gets (for an answer that varies: it still held the lock after the lock
         * timeout); or memcached could not take the lock that holds a write back while
         * the store is on its way.
         */
        LOCKED,
        /**
         * A purge of one of the answer's tags came after the backend was asked, so the
         * answer may predate it; or memcached could not say.
         */
        TAG_PURGED

    }

    private final MeterRegistry registry;

    // By route id; each indexed by ordinal: one counter per value, made once.
    private final Map<String, Lookups> lookups = new ConcurrentHashMap<>();

    private final Counter[] bypasses;

    private final Counter[] skippedStores;

    private final Counter[] droppedStores;

    private final Counter stored;

    public CacheMetrics(MeterRegistry registry) {
        this.registry = registry;
        this.bypasses = counters(Bypass.values(),
                reason -> Counter.builder("memcached.cache.bypasses")
                    .description("Requests that were not looked up")
                    .tag("reason", tag(reason))
                    .register(registry));
        this.skippedStores = counters(Skip.values(), reason -> store(registry, "skipped", tag(reason)));
        this.droppedStores = counters(Drop.values(),
                reason -> store(registry, reason == Drop.FAILED ? "failed" : "dropped", tag(reason)));
        this.stored = store(registry, "stored", "none");
    }

    /**
     * The lookup counters of the route with this id, registered the first time it is
     * named; naming each route as routes load shows its counters at zero, so that a rate
     * over them counts the route's first request too.
     */
    public Lookups lookups(String routeId) {
        return lookups.computeIfAbsent(routeId,
                id -> new Lookups(counters(XCache.values(),
                        status -> Counter.builder("memcached.cache.lookups")
                            .description("Requests through a cached route, by their X-Cache")
                            .tag("route", id)
                            .tag("result", tag(status))
                            .register(registry))));
    }

    public void bypass(Bypass reason) {
        bypasses[reason.ordinal()].increment();
    }

    public void stored() {
        stored.increment();
    }

    public void skipped(Skip reason) {
        skippedStores[reason.ordinal()].increment();
    }

    public void dropped(Drop reason) {
        droppedStores[reason.ordinal()].increment();
    }

    /**
     * An enum value as a meter tag, and as a Cache-Status detail: lower case, with '-'
     * for '_'.
     */
    public static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static <E extends Enum<E>> Counter[] counters(E[] values, Function<E, Counter> counter) {
        Counter[] counters = new Counter[values.length];
        for (E value : values) {
            counters[value.ordinal()] = counter.apply(value);
        }
        return counters;
    }

    /** One route's lookup counters. */
    public static final class Lookups {

        private final Counter[] byStatus;

        private Lookups(Counter[] byStatus) {
            this.byStatus = byStatus;
        }

        public void count(XCache status) {
            byStatus[status.ordinal()].increment();
        }

    }

    private static Counter store(MeterRegistry registry, String result, String reason) {
        return Counter.builder("memcached.cache.stores")
            .description("Backend answers after a miss, by what became of them")
            .tag("result", result)
            .tag("reason", reason)
            .register(registry);
    }

}
