package dev.cachegateway.gateway.cache.format;

import java.util.Optional;

import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;

import org.springframework.http.HttpHeaders;

/**
 * How a route's memcached items hold answers: {@link BodyFormat}, the body alone as
 * nginx's {@code memcached_pass} reads it, or {@link HttpFormat}, the whole answer as
 * OpenResty's srcache stores it. One key holds one format.
 */
public sealed interface ItemFormat permits BodyFormat, HttpFormat {

    /**
     * The answer an item holds and what hits on it share; empty when the item is not of
     * this format.
     */
    Optional<DecodedItem> decode(CachedItem item);

    /**
     * What a backend answer, about to be shared with other requests and stored, carries
     * of the request it answers.
     */
    CapturedResponse capture(CapturedResponse answer, HttpHeaders requestHeaders);

    /**
     * The item that stores {@code answer}, with the flags its store decision gave;
     * {@code askedMillis} is when the request it answers was sent, which the answer's age
     * is counted from (RFC 9111 4.2.3).
     */
    CachedItem encode(CapturedResponse answer, int flags, long askedMillis);

    /** Whether {@code stored} may answer a request with these headers. */
    boolean canAnswer(HttpHeaders requestHeaders, CapturedResponse stored);

    /**
     * A hit on a stored answer: the response it sends, with what a cache adds, and where
     * it stands against its freshness.
     * @param flags the item's flags
     * @param remainingTtl memcached's remaining TTL in seconds, or a
     * {@link dev.cachegateway.gateway.memcached.MetaItem} constant when it did not tell
     * one
     */
    HitAnswer answer(DecodedItem item, int flags, long remainingTtl, long nowMillis);

    /**
     * A hit's response and age.
     *
     * @param response what the client is sent
     * @param age where the stored answer stands against its freshness
     */
    record HitAnswer(CapturedResponse response, ItemAge age) {
    }

    /**
     * Whether an answer that varies (Vary) is stored as variants, each under a key of its
     * own ({@link Variants}); else its one item answers every request alike.
     */
    boolean storesVariants();

    /**
     * Whether an item records the tags its answer came with ({@link ItemTags}), so that a
     * purge by tag reaches it.
     */
    boolean storesTags();

    /**
     * Whether an item's TTL ends with its freshness and stale windows, so that memcached
     * can name a lookup to refresh it ahead of that ({@code mg ... R}); where it does
     * not, an item is refreshed when found stale.
     */
    boolean ttlEndsWithWindows();

    /** Whether an item a lookup found is fresh; an item not of this format is not. */
    boolean isFresh(MetaItem found);

    /**
     * The key of the variant of {@code stored} that a request with these headers needs,
     * if it is not this one.
     */
    default Optional<String> otherVariant(String key, CapturedResponse stored, HttpHeaders requestHeaders) {
        return Optional.empty();
    }

}
