package dev.cachegateway.gateway.cache.format;

import org.springframework.http.HttpHeaders;

/**
 * The headers that hits on one reading of an item send, given the stored answer's age;
 * read-only.
 */
@FunctionalInterface
public interface HitHeaders {

    /**
     * @param ageSeconds the answer's current age, for {@code Age}
     * @param nowMillis the time of the hit
     */
    HttpHeaders at(long ageSeconds, long nowMillis);

    /** Headers that do not change from hit to hit, as a body's. */
    static HitHeaders fixed(HttpHeaders headers) {
        HttpHeaders readOnly = HttpHeaders.readOnlyHttpHeaders(headers);
        return (ageSeconds, nowMillis) -> readOnly;
    }

}
