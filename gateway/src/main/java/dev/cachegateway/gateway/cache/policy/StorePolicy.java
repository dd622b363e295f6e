package dev.cachegateway.gateway.cache.policy;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.memcached.MemcachedLimits;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * HTTP's rules for a shared cache, applied to a backend answer: what may be stored, and for how long. The
 * freshness lifetime comes from {@code s-maxage}, then {@code max-age}, then {@code Expires}, less the answer's
 * {@code Age}; an answer with none of them lives for the route's default, which is off unless the route sets one
 * (as nginx's {@code proxy_cache_valid}). No header value makes it throw: an invalid one is ignored or, for
 * {@code Expires}, means already expired (RFC 9111 5.3).
 */
public final class StorePolicy {

    private final Set<Integer> statuses;

    private final long defaultTtl;

    private final long maxTtl;

    private final MediaType contentType;

    private final int gzipFlag;

    private final long maxItemSize;

    private final Set<String> keyedHeaders;

    private final StaleWindows stale;

    /**
     * A route's rules.
     *
     * @param statuses the statuses that may be stored
     * @param defaultTtl the lifetime of an answer without explicit freshness; zero stores none of them
     * @param maxTtl the longest lifetime an item gets, whatever the answer says
     * @param contentType the type a hit on the route is served with
     * @param gzipFlag the item flag that marks a gzip body; zero stores no gzip body
     * @param maxItemSize the largest body, in bytes, that is stored
     * @param keyedHeaders the request headers, in lower case, that the route's key is made of: an answer that
     * varies on any other header would be served to requests it was not meant for
     * @param stale the route's stale windows, for answers that name none
     */
    public StorePolicy(List<Integer> statuses, Duration defaultTtl, Duration maxTtl, MediaType contentType,
            int gzipFlag, long maxItemSize, Set<String> keyedHeaders, StaleWindows stale) {
        this.statuses = Set.copyOf(statuses);
        this.maxTtl = Math.min(maxTtl.toSeconds(), MemcachedLimits.MAX_TTL_SECONDS);
        this.defaultTtl = Math.min(defaultTtl.toSeconds(), this.maxTtl);
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
        this.maxItemSize = maxItemSize;
        this.keyedHeaders = Set.copyOf(keyedHeaders);
        this.stale = stale;
    }

    /** The largest body, in bytes, that is stored. */
    public long maxItemSize() {
        return maxItemSize;
    }

    /** Whether an answer with this status and these headers, to a request of this method, is stored, and how. */
    public StoreDecision decide(HttpMethod method, HttpStatusCode status, HttpHeaders headers, long nowMillis) {
        if (!HttpMethod.GET.equals(method)) {
            return StoreDecision.skip(Skip.METHOD);
        }
        if (status == null || !statuses.contains(status.value())) {
            return StoreDecision.skip(Skip.STATUS);
        }
        if (headers.containsHeader(HttpHeaders.SET_COOKIE)) {
            return StoreDecision.skip(Skip.SET_COOKIE);
        }
        if (!keyCoversVary(headers)) {
            return StoreDecision.skip(Skip.VARY);
        }
        CacheControlDirectives cacheControl =
                CacheControlDirectives.parse(headers.getValuesAsList(HttpHeaders.CACHE_CONTROL));
        if (cacheControl.has("private") || cacheControl.has("no-store") || cacheControl.has("no-cache")) {
            return StoreDecision.skip(Skip.CACHE_CONTROL);
        }
        if (contentLength(headers) > maxItemSize) {
            return StoreDecision.skip(Skip.TOO_LARGE);
        }
        if (!hasRouteContentType(headers)) {
            return StoreDecision.skip(Skip.CONTENT_TYPE);
        }
        OptionalInt flags = flagsFor(headers.getValuesAsList(HttpHeaders.CONTENT_ENCODING));
        if (flags.isEmpty()) {
            return StoreDecision.skip(Skip.CONTENT_ENCODING);
        }
        OptionalLong lifetime = Freshness.lifetime(cacheControl, headers, nowMillis);
        if (lifetime.isEmpty() && defaultTtl == 0) {
            return StoreDecision.skip(Skip.NO_FRESHNESS);
        }
        long fresh = Math.min(lifetime.orElse(defaultTtl), maxTtl);
        if (fresh <= 0) {
            return StoreDecision.skip(Skip.EXPIRED);
        }
        // max-ttl caps the whole life; the item outlives its freshness by exactly what its flags will say.
        StaleWindows windows = StaleFlags.rounded(StaleWindows.of(cacheControl, stale).atMost(maxTtl - fresh));
        return StoreDecision.store((int) (fresh + windows.longest()), flags.getAsInt() | StaleFlags.encode(windows));
    }

    /*
     * A hit is found by its key alone, so every header the answer varies on must be part of the key. Accept-Encoding
     * is the exception: a gzip item carries the gzip flag and is only served to clients that take gzip, and an
     * identity body suits every client.
     */
    private boolean keyCoversVary(HttpHeaders headers) {
        for (String name : headers.getVary()) {
            String header = name.toLowerCase(Locale.ROOT);
            if (header.equals("*") || !header.equals("accept-encoding") && !keyedHeaders.contains(header)) {
                return false;
            }
        }
        return true;
    }

    // Spring's getContentLength() throws on a value that is not a number.
    private static long contentLength(HttpHeaders headers) {
        try {
            String length = headers.getFirst(HttpHeaders.CONTENT_LENGTH);
            return length != null ? Long.parseLong(length.trim()) : -1;
        }
        catch (NumberFormatException ex) {
            return -1;
        }
    }

    // A hit is served with the route's type, so an answer of another type would come back mislabelled.
    private boolean hasRouteContentType(HttpHeaders headers) {
        try {
            MediaType type = headers.getContentType();
            return type != null && contentType.equalsTypeAndSubtype(type);
        }
        catch (InvalidMediaTypeException ex) {
            return false;
        }
    }

    // A hit says "gzip" only through the item's flags, so only gzip with a gzip flag can be stored encoded.
    private OptionalInt flagsFor(List<String> codings) {
        if (codings.isEmpty() || codings.equals(List.of("identity"))) {
            return OptionalInt.of(0);
        }
        return codings.equals(List.of("gzip")) && gzipFlag != 0 ? OptionalInt.of(gzipFlag) : OptionalInt.empty();
    }
}
