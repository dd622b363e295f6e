package dev.cachegateway.gateway.cache.policy;

import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;

/**
 * HTTP's rules for a shared cache, applied to a backend answer: what may be stored, and
 * for how long. The freshness lifetime comes from {@code s-maxage}, then {@code max-age},
 * then {@code Expires}, less the answer's {@code Age}; an answer with none of them lives
 * for the route's default, which is off unless the route sets one (as nginx's
 * {@code proxy_cache_valid}). No header value makes it throw: an invalid one is ignored
 * or, for {@code Expires}, means already expired (RFC 9111 5.3).
 */
public final class StorePolicy {

    private final Set<Integer> statuses;

    private final long defaultTtl;

    private final long maxTtl;

    private final long maxItemSize;

    private final StaleWindows stale;

    // Null for whole answers, whose headers say what they are.
    private final @Nullable BodyRules body;

    private final long keep;

    /**
     * A body route's rules.
     * @param statuses the statuses that may be stored
     * @param defaultTtl the lifetime of an answer without explicit freshness; zero stores
     * none of them
     * @param maxTtl the longest lifetime an item gets, whatever the answer says
     * @param contentType the type a hit on the route is served with
     * @param gzipFlag the item flag that marks a gzip body; zero stores no gzip body
     * @param maxItemSize the largest body, in bytes, that is stored
     * @param keyedHeaders the request headers, in lower case, that the route's key is
     * made of: an answer that varies on any other header would be served to requests it
     * was not meant for
     * @param stale the route's stale windows, for answers that name none
     */
    public StorePolicy(List<Integer> statuses, Duration defaultTtl, Duration maxTtl, MediaType contentType,
            int gzipFlag, long maxItemSize, Set<String> keyedHeaders, StaleWindows stale) {
        this(statuses, defaultTtl, maxTtl, maxItemSize, stale, new BodyRules(contentType, gzipFlag, keyedHeaders),
                Duration.ZERO);
    }

    private StorePolicy(List<Integer> statuses, Duration defaultTtl, Duration maxTtl, long maxItemSize,
            StaleWindows stale, @Nullable BodyRules body, Duration keep) {
        this.statuses = Set.copyOf(statuses);
        this.maxTtl = Math.min(maxTtl.toSeconds(), MemcachedLimits.MAX_TTL_SECONDS);
        this.defaultTtl = Math.min(defaultTtl.toSeconds(), this.maxTtl);
        this.maxItemSize = maxItemSize;
        this.stale = stale;
        this.body = body;
        this.keep = keep.toSeconds();
    }

    /**
     * An {@code http} route's rules: any type and coding, since the item keeps the
     * headers that say them; an answer that varies, since its variants are kept apart;
     * one that sets a cookie, since the cookie is not stored. An answer with a validator
     * outlives its freshness by {@code keep}, to be revalidated rather than fetched
     * again.
     */
    public static StorePolicy forWholeAnswers(List<Integer> statuses, Duration defaultTtl, Duration maxTtl,
            long maxItemSize, StaleWindows stale, Duration keep) {
        return new StorePolicy(statuses, defaultTtl, maxTtl, maxItemSize, stale, null, keep);
    }

    /** The largest body, in bytes, that is stored. */
    public long maxItemSize() {
        return maxItemSize;
    }

    /**
     * Whether an answer with this status and these headers, to a request of this method,
     * is stored, and how.
     */
    public StoreDecision decide(HttpMethod method, HttpStatusCode status, HttpHeaders headers, long nowMillis) {
        if (!HttpMethod.GET.equals(method)) {
            return StoreDecision.skip(Skip.METHOD);
        }
        if (status == null || !statuses.contains(status.value())) {
            return StoreDecision.skip(Skip.STATUS);
        }
        if (body != null && headers.containsHeader(HttpHeaders.SET_COOKIE)) {
            return StoreDecision.skip(Skip.SET_COOKIE);
        }
        if (body != null ? !body.keyCoversVary(headers) : headers.getVary().contains("*")) {
            return StoreDecision.skip(Skip.VARY);
        }
        TargetedCacheControl control = TargetedCacheControl.of(headers);
        CacheControlDirectives cacheControl = control.directives();
        if (cacheControl.has("private") || cacheControl.has("no-store") || cacheControl.has("no-cache")) {
            return StoreDecision.skip(Skip.CACHE_CONTROL);
        }
        if (contentLength(headers) > maxItemSize) {
            return StoreDecision.skip(Skip.TOO_LARGE);
        }
        Skip refused = body != null ? body.refusal(headers) : null;
        if (refused != null) {
            return StoreDecision.skip(refused);
        }
        OptionalLong lifetime = Freshness.lifetime(cacheControl, control.freshnessHeaders(headers), nowMillis);
        if (lifetime.isEmpty() && defaultTtl == 0) {
            return StoreDecision.skip(Skip.NO_FRESHNESS);
        }
        long fresh = Math.min(lifetime.orElse(defaultTtl), maxTtl);
        if (fresh <= 0 && !revalidates(lifetime, headers)) {
            return StoreDecision.skip(Skip.EXPIRED);
        }
        // max-ttl caps the whole life; the item outlives its freshness by exactly what
        // its flags will say.
        long freshPart = Math.max(0, fresh);
        StaleWindows windows = StaleFlags.rounded(StaleWindows.of(cacheControl, stale).atMost(maxTtl - freshPart));
        long after = revalidates(lifetime, headers) ? Math.max(windows.longest(), keep) : windows.longest();
        int flags = (body != null ? body.flags(headers) : 0) | StaleFlags.encode(windows);
        return StoreDecision.store((int) Math.min(freshPart + after, maxTtl), flags);
    }

    // An answer kept past its freshness to be revalidated: explicit freshness, a
    // validator, and a keep to do it in.
    private boolean revalidates(OptionalLong lifetime, HttpHeaders headers) {
        return keep > 0 && lifetime.isPresent()
                && (headers.containsHeader(HttpHeaders.ETAG) || headers.containsHeader(HttpHeaders.LAST_MODIFIED));
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

}
