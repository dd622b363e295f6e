package dev.cachegateway.gateway.cache.policy;

import java.util.List;
import java.util.OptionalLong;

import dev.cachegateway.gateway.memcached.MetaItem;
import org.jspecify.annotations.Nullable;

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

    public static StoredAnswerAge of(HttpHeaders stored, int flags, long remainingTtl, long nowMillis) {
        StaleWindows windows = StaleFlags.decode(flags);
        OptionalLong date = single(stored.get(HttpHeaders.DATE), nowMillis);
        long dateMillis = date.orElse(nowMillis);
        TargetedCacheControl control = TargetedCacheControl.of(stored);
        // The lifetime less the Age it was stored with: what was left of it at its Date.
        OptionalLong left = Freshness.lifetime(control.directives(), control.freshnessHeaders(stored), dateMillis);
        long storedAge = Freshness.age(stored);
        if (date.isPresent() && left.isPresent()) {
            long elapsed = Math.max(0, nowMillis - dateMillis) / 1000;
            return new StoredAnswerAge(ItemAge.ofFreshness(left.getAsLong() - elapsed, windows), storedAge + elapsed);
        }
        if (remainingTtl == MetaItem.TTL_UNKNOWN) {
            return new StoredAnswerAge(ItemAge.UNKNOWN, storedAge);
        }
        ItemAge age = ItemAge.of(flags, remainingTtl);
        long elapsed = left.isPresent() && age.ttl().isPresent()
                ? Math.max(0, left.getAsLong() - age.ttl().getAsLong()) : 0;
        return new StoredAnswerAge(age, storedAge + elapsed);
    }

    private static OptionalLong single(@Nullable List<String> values, long nowMillis) {
        return values != null && values.size() == 1 ? HttpDate.parse(values.get(0), nowMillis) : OptionalLong.empty();
    }
}
