package dev.cachegateway.gateway.cache.hit;

import java.util.Optional;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.cache.format.DecodedItem;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.format.ItemFormat.HitAnswer;
import dev.cachegateway.gateway.cache.hit.NearCache.NearItem;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.tag.TagGenerations.Verdict;
import dev.cachegateway.gateway.logging.BurstLog;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import dev.cachegateway.gateway.memcached.MetaItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * Looks a key up: in the near-cache first, when it is on, then in memcached. Never fails:
 * a memcached failure is a {@link Lookup} too, so that the caller answers from the
 * backend.
 */
public final class ItemLookup {

    private static final BurstLog failures = BurstLog.of(MemcachedCacheFilter.class);

    // Not defaultIfEmpty: on every lookup that finds something, it hands its unused
    // default to the discard hook, looking the hook up in the context of the request's
    // whole operator chain, 4% of a hit's CPU under load.
    private static final Mono<Lookup> MISS = Mono.just(Lookup.MISS);

    private final ReactiveMemcached memcached;

    private final NearCache near;

    private final DecodedItems decoded;

    private final TagGenerations tags;

    public ItemLookup(ReactiveMemcached memcached, NearCache near, DecodedItems decoded, TagGenerations tags) {
        this.memcached = memcached;
        this.near = near;
        this.decoded = decoded;
        this.tags = tags;
    }

    /**
     * Looks {@code key} up; {@code refreshAhead} seconds before the item's freshness ends
     * (0: never), memcached hands one lookup across all replicas the right to refresh it
     * early. An answer that varies is looked up once more, under the key of the variant
     * this request needs.
     */
    public Mono<Lookup> lookUp(String key, HttpHeaders requestHeaders, ItemFormat format, int refreshAhead) {
        NearItem held = near.get(key);
        Mono<Lookup> lookup;
        if (held != null) {
            MetaItem item = MetaItem.withoutMeta(held.item());
            lookup = judged(key, item, decoded.read(key, held.item(), format), requestHeaders, format,
                    System.nanoTime());
        }
        else {
            lookup = lookUpInMemcached(key, refreshAhead).flatMap(found -> {
                // memcached read the item before its answer came: its tags' generations
                // read after this are at least as new as the item's.
                long readAt = System.nanoTime();
                Optional<DecodedItem> stored = decoded.read(key, found.item(), format);
                Optional<String> variant = stored
                    .flatMap(item -> format.otherVariant(key, item.stored(), requestHeaders));
                if (variant.isPresent()) {
                    return lookUpInMemcached(variant.get(), 0).flatMap(
                            other -> judged(variant.get(), other, decoded.read(variant.get(), other.item(), format),
                                    requestHeaders, format, System.nanoTime()));
                }
                // Only a fresh item that nobody must refresh now is worth holding in
                // this gateway; its hits there are judged by its tags as these are.
                ItemAge age = ItemAge.of(found);
                if (near.enabled() && age.fresh() && !found.won() && !found.stale()
                        && stored.map(item -> tags.verdict(item.tags(), readAt) == Verdict.VALID).orElse(true)) {
                    near.read(key, found.item(), age);
                }
                return judged(key, found, stored, requestHeaders, format, readAt);
            }).switchIfEmpty(MISS);
        }
        return lookup.onErrorResume(failure -> {
            // An open breaker is logged once, when it opens.
            if (!MemcachedLimits.isCircuitOpen(failure)) {
                failures.warn("memcached lookup failed, answering from the backend", failure);
            }
            return Mono.just(Lookup.failed(failure));
        });
    }

    // A lookup given up on because this gateway was paused says nothing of memcached: it
    // is sent once more, so that a replica back from a pause does not ask the backend for
    // what memcached holds. Not retryWhen, which costs every hit a sink.
    private Mono<MetaItem> lookUpInMemcached(String key, int refreshAhead) {
        return memcached.lookup(key, refreshAhead)
            .onErrorResume(MemcachedLimits::isGatewayDelay, delayed -> memcached.lookup(key, refreshAhead));
    }

    // The item as its tags say now: the generations this replica does not know yet are
    // read first; where they still cannot be, it is taken as purged, as memcached's
    // evictions are.
    private Mono<Lookup> judged(String key, MetaItem found, Optional<DecodedItem> stored, HttpHeaders requestHeaders,
            ItemFormat format, long readAt) {
        ItemTags itemTags = stored.map(DecodedItem::tags).orElse(ItemTags.NONE);
        Verdict verdict = tags.verdict(itemTags, readAt);
        if (verdict != Verdict.UNKNOWN) {
            return Mono.just(read(key, found, stored, requestHeaders, format, verdict));
        }
        return tags.judge(itemTags, readAt).map(judged -> read(key, found, stored, requestHeaders, format, judged));
    }

    // An item this client cannot take is as good as none: a gzip body for a client
    // without gzip, or a variant it did not ask for. The backend's answer to that client
    // is not stored, since it would replace the item that the others are served. An item
    // that is not of the route's format is a miss, and the answer replaces it.
    private Lookup read(String key, MetaItem found, Optional<DecodedItem> decoded, HttpHeaders requestHeaders,
            ItemFormat format, Verdict verdict) {
        if (decoded.isEmpty()) {
            return Lookup.MISS;
        }
        if (verdict == Verdict.PURGED || verdict == Verdict.UNKNOWN) {
            near.invalidate(key);
            return Lookup.MISS;
        }
        CapturedResponse stored = decoded.get().stored();
        if (!format.canAnswer(requestHeaders, stored)) {
            return Lookup.UNUSABLE;
        }
        HitAnswer hit = format.answer(decoded.get(), found.item().flags(), found.remainingTtlSeconds(),
                System.currentTimeMillis());
        ItemAge age = found.stale() || verdict == Verdict.SOFTENED
                ? hit.age().invalidated(StaleFlags.decode(found.item().flags())) : hit.age();
        return Lookup.hit(hit.response(), stored, age, found.won());
    }

}
