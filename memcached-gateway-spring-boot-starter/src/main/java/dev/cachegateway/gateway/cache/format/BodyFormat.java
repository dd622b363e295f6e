package dev.cachegateway.gateway.cache.format;

import java.util.Optional;

import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.policy.StoredFreshness;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.cache.response.GzipAcceptance;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * A memcached item as the answer to a request, as nginx makes it on a hit: 200, the
 * bytes, the route's Content-Type and, when the item's flags say so,
 * {@code Content-Encoding: gzip}; and a strong ETag of the bytes.
 */
public final class BodyFormat implements ItemFormat {

    private final MediaType contentType;

    private final int gzipFlag;

    public BodyFormat(MediaType contentType, int gzipFlag) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
    }

    /** Every item is a body; every hit on it sends the same headers. */
    @Override
    public Optional<DecodedItem> decode(CachedItem item) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(contentType);
        if (item.hasFlag(gzipFlag)) {
            headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        HttpHeaders hitHeaders = HttpHeaders.copyOf(headers);
        hitHeaders.setETag(EntityTags.of(item.value()));
        return Optional.of(new DecodedItem(new CapturedResponse(HttpStatus.OK, headers, item.value()),
                HitHeaders.fixed(hitHeaders), StoredFreshness.NONE, ItemTags.NONE));
    }

    @Override
    public CapturedResponse capture(CapturedResponse answer, HttpHeaders requestHeaders) {
        return answer;
    }

    /** The body alone; its headers are the route's to make again on every hit. */
    @Override
    public CachedItem encode(CapturedResponse answer, int flags, long askedMillis) {
        return new CachedItem(answer.body(), flags);
    }

    /** Any item but a gzip one, unless the client takes gzip. */
    @Override
    public boolean canAnswer(HttpHeaders requestHeaders, CapturedResponse stored) {
        return GzipAcceptance.canTake(requestHeaders, stored);
    }

    // One body answers every request, whatever the answer's Vary says.
    @Override
    public boolean storesVariants() {
        return false;
    }

    // nginx serves the body as it is: nothing could check a tag's generation.
    @Override
    public boolean storesTags() {
        return false;
    }

    @Override
    public boolean ttlEndsWithWindows() {
        return true;
    }

    @Override
    public boolean isFresh(MetaItem found) {
        return ItemAge.of(found).fresh();
    }

    /**
     * Aged from memcached's remaining TTL and the stale windows in the flags: a body says
     * nothing of its age.
     */
    @Override
    public HitAnswer answer(DecodedItem item, int flags, long remainingTtl, long nowMillis) {
        CapturedResponse stored = item.stored();
        return new HitAnswer(new CapturedResponse(stored.status(), item.hitHeaders().at(0, nowMillis), stored.body()),
                ItemAge.of(flags, remainingTtl));
    }

}
