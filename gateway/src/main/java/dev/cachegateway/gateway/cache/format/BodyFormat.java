package dev.cachegateway.gateway.cache.format;

import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.cache.response.GzipAcceptance;
import dev.cachegateway.gateway.memcached.CachedItem;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

/**
 * A memcached item as the answer to a request, as nginx makes it on a hit: 200, the bytes, the route's Content-Type
 * and, when the item's flags say so, {@code Content-Encoding: gzip}; and a strong ETag of the bytes.
 */
public final class BodyFormat {

    private final MediaType contentType;

    private final int gzipFlag;

    public BodyFormat(MediaType contentType, int gzipFlag) {
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
    }

    /** Whether {@code item} may answer a request with these headers: any item but a gzip one, unless it takes gzip. */
    public boolean canAnswer(HttpHeaders requestHeaders, CachedItem item) {
        return GzipAcceptance.canTake(requestHeaders, item.hasFlag(gzipFlag));
    }

    public CapturedResponse response(CachedItem item) {
        return response(item, EntityTags.of(item.value()));
    }

    /** The same, with the item's ETag known already. */
    public CapturedResponse response(CachedItem item, String etag) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(contentType);
        if (item.hasFlag(gzipFlag)) {
            headers.set(HttpHeaders.CONTENT_ENCODING, "gzip");
        }
        headers.setETag(etag);
        return new CapturedResponse(HttpStatus.OK, headers, item.value());
    }
}
