package dev.cachegateway.gateway.cache.outcome;

import java.util.EnumMap;
import java.util.Locale;
import java.util.Map;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * What the cache does, for Micrometer: {@code memcached.cache.lookups} by result, which is the request's
 * {@code X-Cache} (hit, miss, coalesced, bypass, error), {@code memcached.cache.bypasses} by reason, and
 * {@code memcached.cache.stores} by result and reason. Every counter is made once, so counting costs a request no
 * registry lookup.
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
        FAILED
    }

    private final Map<XCache, Counter> lookups = new EnumMap<>(XCache.class);

    private final Map<Bypass, Counter> bypasses = new EnumMap<>(Bypass.class);

    private final Map<Skip, Counter> skippedStores = new EnumMap<>(Skip.class);

    private final Map<Drop, Counter> droppedStores = new EnumMap<>(Drop.class);

    private final Counter stored;

    public CacheMetrics(MeterRegistry registry) {
        for (XCache status : XCache.values()) {
            lookups.put(status, Counter.builder("memcached.cache.lookups")
                    .description("Requests through a cached route, by their X-Cache")
                    .tag("result", tag(status)).register(registry));
        }
        for (Bypass reason : Bypass.values()) {
            bypasses.put(reason, Counter.builder("memcached.cache.bypasses")
                    .description("Requests that were not looked up").tag("reason", tag(reason)).register(registry));
        }
        for (Skip reason : Skip.values()) {
            skippedStores.put(reason, store(registry, "skipped", tag(reason)));
        }
        for (Drop reason : Drop.values()) {
            droppedStores.put(reason, store(registry, reason == Drop.FAILED ? "failed" : "dropped", tag(reason)));
        }
        this.stored = store(registry, "stored", "none");
    }

    public void lookup(XCache status) {
        lookups.get(status).increment();
    }

    public void bypass(Bypass reason) {
        bypasses.get(reason).increment();
    }

    public void stored() {
        stored.increment();
    }

    public void skipped(Skip reason) {
        skippedStores.get(reason).increment();
    }

    public void dropped(Drop reason) {
        droppedStores.get(reason).increment();
    }

    private static Counter store(MeterRegistry registry, String result, String reason) {
        return Counter.builder("memcached.cache.stores").description("Backend answers after a miss, by what became of them")
                .tag("result", result).tag("reason", reason).register(registry);
    }

    private static String tag(Enum<?> value) {
        return value.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
