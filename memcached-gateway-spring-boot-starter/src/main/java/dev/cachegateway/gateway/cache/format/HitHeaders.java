package dev.cachegateway.gateway.cache.format;

import dev.cachegateway.gateway.cache.response.WireHeaders;

import org.springframework.http.HttpHeaders;

/**
 * The headers that hits on one reading of an item send, given the stored answer's age;
 * read-only, and the same object for every hit they are the same for, so that the form
 * they are written in is made once ({@link WireHeaders}).
 */
@FunctionalInterface
public interface HitHeaders {

    /**
     * @param ageSeconds the answer's current age, for {@code Age}
     * @param nowMillis the time of the hit
     */
    WireHeaders at(long ageSeconds, long nowMillis);

    /** Headers that do not change from hit to hit, as a body's. */
    static HitHeaders fixed(HttpHeaders headers) {
        WireHeaders readOnly = new WireHeaders(HttpHeaders.readOnlyHttpHeaders(headers));
        return (ageSeconds, nowMillis) -> readOnly;
    }

}
