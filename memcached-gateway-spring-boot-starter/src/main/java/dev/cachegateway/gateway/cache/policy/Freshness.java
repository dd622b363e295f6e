package dev.cachegateway.gateway.cache.policy;

import java.util.List;
import java.util.OptionalLong;

import org.springframework.http.HttpHeaders;

/**
 * How long a backend answer stays fresh by its own account (RFC 9111 4.2.1):
 * {@code s-maxage}, then {@code max-age}, then {@code Expires} less {@code Date}, and
 * less the {@code Age} an upstream cache reports.
 */
public final class Freshness {

    private Freshness() {
    }

    /**
     * The explicit freshness lifetime left, in seconds, or none if the answer gives none.
     */
    static OptionalLong lifetime(CacheControlDirectives cacheControl, HttpHeaders headers, long nowMillis) {
        long lifetime = cacheControl.seconds("s-maxage");
        if (lifetime < 0) {
            lifetime = cacheControl.seconds("max-age");
        }
        if (lifetime < 0) {
            List<String> expires = headers.get(HttpHeaders.EXPIRES);
            if (expires == null) {
                return OptionalLong.empty();
            }
            // An Expires that is not one valid HTTP-date means "already expired" (RFC
            // 9111 5.3); two lines are invalid too, since a date holds a comma and cannot
            // be a list.
            OptionalLong expiresAt = expires.size() == 1 ? HttpDate.parse(expires.get(0), nowMillis)
                    : OptionalLong.empty();
            List<String> dates = headers.get(HttpHeaders.DATE);
            OptionalLong date = dates != null && dates.size() == 1 ? HttpDate.parse(dates.get(0), nowMillis)
                    : OptionalLong.empty();
            lifetime = expiresAt.isPresent() ? (expiresAt.getAsLong() - date.orElse(nowMillis)) / 1000 : 0;
        }
        return OptionalLong.of(lifetime - age(headers));
    }

    /**
     * The {@code Age} an upstream cache reported, in seconds; 0 when none or invalid. A
     * list counts by its first member, and several lines by their first, as most caches
     * read them: {@code Age: 7200, 0} is 7200.
     */
    public static long age(HttpHeaders headers) {
        String line = headers.getFirst("Age");
        String first = line != null ? line.split(",", 2)[0].trim() : "";
        if (first.isEmpty() || !first.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return 0;
        }
        return first.length() > 10 ? CacheControlDirectives.MAX_DELTA_SECONDS
                : Math.min(Long.parseLong(first), CacheControlDirectives.MAX_DELTA_SECONDS);
    }

}
