package dev.cachegateway.gateway.cache.format;

import java.util.Optional;

import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.cache.response.GzipAcceptance;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * A memcached item as the answer to a request, as nginx makes it on a hit: 200, the bytes, the route's Content-Type
 * and, when the item's flags say so, {@code Content-Encoding: gzip}; and a strong ETag of the bytes.
 */
public final class BodyFormat implements ItemFormat {

    private final MediaType contentType;

    private final int gzipFlag;

    public BodyFormat(MediaType contentType, int gzipFlag) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
    }

    /** Every item is a body. */
    @Override
    public Optional<CapturedResponse> decode(CachedItem item) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(contentType);
        if (item.hasFlag(gzipFlag)) {
            headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        return Optional.of(new CapturedResponse(HttpStatus.OK, headers, item.value()));
    }

    @Override
    public CapturedResponse capture(CapturedResponse answer, HttpHeaders requestHeaders) {
        return answer;
    }

    /** The body alone; its headers are the route's to make again on every hit. */
    @Override
    public CachedItem encode(CapturedResponse answer, int flags, long nowMillis) {
        return new CachedItem(answer.body(), flags);
    }

    /** Any item but a gzip one, unless the client takes gzip. */
    @Override
    public boolean canAnswer(HttpHeaders requestHeaders, CapturedResponse stored) {
        return GzipAcceptance.canTake(requestHeaders, stored);
    }

    @Override
    public boolean isFresh(MetaItem found) {
        return ItemAge.of(found).fresh();
    }

    /** Aged from memcached's remaining TTL and the stale windows in the flags: a body says nothing of its age. */
    @Override
    public HitAnswer answer(CapturedResponse stored, int flags, long remainingTtl, @Nullable String knownEtag,
            long nowMillis) {
        HttpHeaders headers = HttpHeaders.copyOf(stored.headers());
        headers.setETag(knownEtag != null ? knownEtag : EntityTags.of(stored.body()));
        return new HitAnswer(new CapturedResponse(stored.status(), headers, stored.body()),
                ItemAge.of(flags, remainingTtl));
    }
}
