package dev.cachegateway.gateway.cache.miss;

import java.util.Optional;

import dev.cachegateway.gateway.cache.format.DecodedItem;
import dev.cachegateway.gateway.cache.format.ItemFormat;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.tag.TagGenerations.Verdict;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;

/**
 * The fresh item in memcached that answers one request, for a miss that waits for another
 * replica's store or asks once more before the backend: the primary item, or the variant
 * of it that the request needs, as a lookup finds it. An item that answers another
 * variant, or another client's gzip, is no answer: it would send the request to the
 * backend without storing what it gets.
 */
public final class FreshAnswers {

    private final ReactiveMemcached memcached;

    private final ItemFormat format;

    private final TagGenerations tags;

    public FreshAnswers(ReactiveMemcached memcached, ItemFormat format, TagGenerations tags) {
        this.memcached = memcached;
        this.format = format;
        this.tags = tags;
    }

    /**
     * The item under {@code key}, or its variant, that is fresh and answers
     * {@code request}; empty if none.
     */
    Mono<CachedItem> find(String key, HttpHeaders request) {
        return memcached.lookup(key, 0).flatMap(found -> {
            Optional<DecodedItem> decoded = format.decode(found.item());
            if (decoded.isEmpty()) {
                return Mono.<CachedItem>empty();
            }
            Optional<String> variant = format.otherVariant(key, decoded.get().stored(), request);
            if (variant.isEmpty()) {
                return answering(found, decoded.get(), request);
            }
            return memcached.lookup(variant.get(), 0)
                .flatMap(other -> format.decode(other.item())
                    .map(own -> answering(other, own, request))
                    .orElseGet(Mono::empty));
        }).onErrorResume(failure -> Mono.empty());
    }

    private Mono<CachedItem> answering(MetaItem found, DecodedItem decoded, HttpHeaders request) {
        // An item a soft purge invalidated is no answer, though its TTL may say fresh;
        // nor is one that a purge of its tags reached.
        if (found.stale() || !format.isFresh(found) || !format.canAnswer(request, decoded.stored())) {
            return Mono.empty();
        }
        ItemTags itemTags = decoded.tags();
        return tags.judge(itemTags, System.nanoTime())
            .filter(verdict -> verdict == Verdict.VALID)
            .map(valid -> found.item());
    }

}
