package dev.cachegateway.gateway.cache;

import java.time.Duration;
import java.util.List;
import java.util.Set;

import dev.cachegateway.gateway.cache.StoreDecision.Skip;
import dev.cachegateway.gateway.memcached.MemcachedLimits;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.InvalidMediaTypeException;
import org.springframework.http.MediaType;

/**
 * HTTP's rules for a shared cache, applied to a backend answer: what may be stored, and for how long. The
 * freshness lifetime comes from {@code s-maxage}, then {@code max-age}, then {@code Expires}, less the answer's
 * {@code Age}; an answer with none of them lives for the route's default.
 */
final class StorePolicy {

    private final Set<Integer> statuses;

    private final long defaultTtl;

    private final long maxTtl;

    private final MediaType contentType;

    private final int gzipFlag;

    private final long maxItemSize;

    StorePolicy(List<Integer> statuses, Duration defaultTtl, Duration maxTtl, MediaType contentType, int gzipFlag,
            long maxItemSize) {
        this.statuses = Set.copyOf(statuses);
        this.maxTtl = Math.min(maxTtl.toSeconds(), MemcachedLimits.MAX_TTL_SECONDS);
        this.defaultTtl = Math.min(defaultTtl.toSeconds(), this.maxTtl);
        this.contentType = contentType;
        this.gzipFlag = gzipFlag;
        this.maxItemSize = maxItemSize;
    }

    long maxItemSize() {
        return maxItemSize;
    }

    StoreDecision decide(HttpMethod method, HttpStatusCode status, HttpHeaders headers, long nowMillis) {
        if (!HttpMethod.GET.equals(method)) {
            return StoreDecision.skip(Skip.METHOD);
        }
        if (status == null || !statuses.contains(status.value())) {
            return StoreDecision.skip(Skip.STATUS);
        }
        if (headers.containsHeader(HttpHeaders.SET_COOKIE)) {
            return StoreDecision.skip(Skip.SET_COOKIE);
        }
        if (headers.getVary().contains("*")) {
            return StoreDecision.skip(Skip.VARY);
        }
        CacheControlDirectives cacheControl =
                CacheControlDirectives.parse(headers.getValuesAsList(HttpHeaders.CACHE_CONTROL));
        if (cacheControl.has("private") || cacheControl.has("no-store") || cacheControl.has("no-cache")) {
            return StoreDecision.skip(Skip.CACHE_CONTROL);
        }
        if (headers.getContentLength() > maxItemSize) {
            return StoreDecision.skip(Skip.TOO_LARGE);
        }
        if (!hasRouteContentType(headers)) {
            return StoreDecision.skip(Skip.CONTENT_TYPE);
        }
        Integer flags = flagsFor(headers.getValuesAsList(HttpHeaders.CONTENT_ENCODING));
        if (flags == null) {
            return StoreDecision.skip(Skip.CONTENT_ENCODING);
        }
        long ttl = Math.min(freshnessLifetime(cacheControl, headers, nowMillis), maxTtl);
        return ttl > 0 ? StoreDecision.store((int) ttl, flags) : StoreDecision.skip(Skip.EXPIRED);
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
    private Integer flagsFor(List<String> codings) {
        if (codings.isEmpty() || codings.equals(List.of("identity"))) {
            return 0;
        }
        return codings.equals(List.of("gzip")) && gzipFlag != 0 ? gzipFlag : null;
    }

    private long freshnessLifetime(CacheControlDirectives cacheControl, HttpHeaders headers, long nowMillis) {
        long lifetime;
        if (cacheControl.has("s-maxage")) {
            lifetime = cacheControl.seconds("s-maxage");
        }
        else if (cacheControl.has("max-age")) {
            lifetime = cacheControl.seconds("max-age");
        }
        else if (headers.containsHeader(HttpHeaders.EXPIRES)) {
            long expires = headers.getExpires();
            long date = headers.getDate() > 0 ? headers.getDate() : nowMillis;
            // An Expires that does not parse means "already expired" (RFC 9111 5.3).
            lifetime = expires > 0 ? (expires - date) / 1000 : 0;
        }
        else {
            return defaultTtl;
        }
        return lifetime - age(headers);
    }

    private static long age(HttpHeaders headers) {
        try {
            String age = headers.getFirst("Age");
            return age != null ? Math.max(0, Long.parseLong(age.trim())) : 0;
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }
}
