package dev.cachegateway.gateway.cache.policy;

import org.springframework.http.HttpHeaders;

/**
 * The age of a whole answer held in memcached, judged from the headers stored with it (RFC 9111 4.2): its current
 * age is the {@code Age} it was stored with plus the time since its {@code Date}, and it is fresh while that is
 * below its explicit lifetime. An answer stored without a {@code Date} (srcache stores what nginx passed on, often
 * none) is aged from memcached's remaining TTL, which its writer set from the same lifetime; so is one without
 * explicit freshness, which lived for a route's default TTL.
 *
 * @param age where the answer stands against its freshness
 * @param seconds its current age, for the {@code Age} header
 */
public record StoredAnswerAge(ItemAge age, long seconds) {

    /** Reads the headers and ages them at once; {@link StoredFreshness} keeps the reading for later hits. */
    public static StoredAnswerAge of(HttpHeaders stored, int flags, long remainingTtl, long nowMillis) {
        return StoredFreshness.of(stored, nowMillis).at(flags, remainingTtl, nowMillis);
    }
}
