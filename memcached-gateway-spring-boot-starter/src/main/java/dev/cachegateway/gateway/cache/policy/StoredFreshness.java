package dev.cachegateway.gateway.cache.policy;

import java.util.List;
import java.util.OptionalLong;

import dev.cachegateway.gateway.memcached.MetaItem;

import org.springframework.http.HttpHeaders;

/**
 * What the headers stored with a whole answer say of its freshness, read once per stored
 * version, so that each hit on it ages it with arithmetic alone ({@link #at}). An answer
 * with a {@code Date} has its lifetime fixed at that date; one without is judged against
 * the time of each hit, as its {@code Expires} asks.
 */
public final class StoredFreshness {

    /** An answer whose headers say nothing of its freshness, such as a bare body. */
    public static final StoredFreshness NONE = of(new HttpHeaders(), 0);

    private final OptionalLong date;

    private final TargetedCacheControl control;

    private final HttpHeaders freshnessHeaders;

    // The lifetime left at the Date, when there is one.
    private final OptionalLong leftAtDate;

    private final long storedAge;

    private StoredFreshness(OptionalLong date, TargetedCacheControl control, HttpHeaders freshnessHeaders,
            long storedAge) {
        this.date = date;
        this.control = control;
        this.freshnessHeaders = freshnessHeaders;
        this.storedAge = storedAge;
        this.leftAtDate = date.isPresent()
                ? Freshness.lifetime(control.directives(), freshnessHeaders, date.getAsLong()) : OptionalLong.empty();
    }

    /**
     * @param nowMillis the time that a two-digit year in an obsolete date is read against
     */
    public static StoredFreshness of(HttpHeaders stored, long nowMillis) {
        TargetedCacheControl control = TargetedCacheControl.of(stored);
        return new StoredFreshness(date(stored, nowMillis), control, control.freshnessHeaders(stored),
                Freshness.age(stored));
    }

    /**
     * Its age at {@code nowMillis} by RFC 9111 4.2.3: the {@code Age} it was stored with
     * plus the time since its {@code Date}, fresh while below its explicit lifetime. This
     * gateway stores only the age that the {@code Date} does not tell
     * ({@link StoredAnswerAge#toStore}), so no second is counted twice; another writer's
     * item that keeps both is aged by their sum, which errs old, never young. Without a
     * {@code Date}, or without explicit freshness (then it lived for a route's default
     * TTL), memcached's remaining TTL tells, since its writer set it from the same
     * lifetime.
     */
    public StoredAnswerAge at(int flags, long remainingTtl, long nowMillis) {
        StaleWindows windows = StaleFlags.decode(flags);
        OptionalLong left = date.isPresent() ? leftAtDate
                : Freshness.lifetime(control.directives(), freshnessHeaders, nowMillis);
        if (date.isPresent() && left.isPresent()) {
            long elapsed = Math.max(0, nowMillis - date.getAsLong()) / 1000;
            return new StoredAnswerAge(ItemAge.ofFreshness(left.getAsLong() - elapsed, windows), storedAge + elapsed);
        }
        if (remainingTtl == MetaItem.TTL_UNKNOWN) {
            return new StoredAnswerAge(ItemAge.UNKNOWN, storedAge);
        }
        ItemAge age = ItemAge.of(flags, remainingTtl);
        long elapsed = left.isPresent() && age.ttl().isPresent() ? Math.max(0, left.getAsLong() - age.ttl().getAsLong())
                : 0;
        return new StoredAnswerAge(age, storedAge + elapsed);
    }

    /** The answer's {@code Date}, if it has one valid one. */
    static OptionalLong date(HttpHeaders headers, long nowMillis) {
        List<String> values = headers.get(HttpHeaders.DATE);
        return values != null && values.size() == 1 ? HttpDate.parse(values.get(0), nowMillis) : OptionalLong.empty();
    }

}
