package dev.cachegateway.gateway.cache.policy;

import java.util.OptionalLong;

import org.springframework.http.HttpHeaders;

/**
 * The age of a whole answer held in memcached, judged from the headers stored with it
 * (RFC 9111 4.2): its current age is the {@code Age} it was stored with plus the time
 * since its {@code Date}, and it is fresh while that is below its explicit lifetime. An
 * answer stored without a {@code Date} (srcache stores what nginx passed on, often none)
 * is aged from memcached's remaining TTL, which its writer set from the same lifetime; so
 * is one without explicit freshness, which lived for a route's default TTL.
 *
 * @param age where the answer stands against its freshness
 * @param seconds its current age, for the {@code Age} header
 */
public record StoredAnswerAge(ItemAge age, long seconds) {

    /**
     * Reads the headers and ages them at once; {@link StoredFreshness} keeps the reading
     * for later hits.
     */
    public static StoredAnswerAge of(HttpHeaders stored, int flags, long remainingTtl, long nowMillis) {
        return StoredFreshness.of(stored, nowMillis).at(flags, remainingTtl, nowMillis);
    }

    /**
     * The {@code Age} to store with an answer to a request sent at {@code askedMillis}:
     * what its {@code Date} does not already tell. RFC 9111 4.2.3 takes the larger of the
     * {@code Age} received and the time since the {@code Date}, not their sum, and the
     * item keeps no time of receipt; stored so, the {@code Age} plus the time since the
     * {@code Date} is that larger one at first and grows by the time held. The time since
     * the {@code Date} is taken when the backend was asked, which its answer's true age
     * counts from at the latest: taken later (once the answer came, or once memcached
     * took it), it would take seconds off that a slow answer or a slow store spent. An
     * answer whose {@code Date} is not one valid date keeps the {@code Age} it came with.
     */
    public static long toStore(HttpHeaders answer, long askedMillis) {
        long age = Freshness.age(answer);
        OptionalLong date = StoredFreshness.date(answer, askedMillis);
        return date.isPresent() ? Math.max(0, age - Math.max(0, askedMillis - date.getAsLong()) / 1000) : age;
    }
}
