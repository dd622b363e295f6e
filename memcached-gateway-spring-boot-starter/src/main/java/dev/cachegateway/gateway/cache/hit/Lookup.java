package dev.cachegateway.gateway.cache.hit;

import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.response.CapturedResponse;

/**
 * What a lookup found: an item this client can take, nothing it can use, or a failure.
 */
public sealed interface Lookup {

    /** Nothing in memcached under the key. */
    Lookup MISS = Absent.MISS;

    /** An item this client cannot take: gzip for a client without gzip. */
    Lookup UNUSABLE = Absent.UNUSABLE;

    /** What it found, in a word: hit, stale, miss, unusable or error. */
    default String result() {
        if (this instanceof Hit hit) {
            return hit.age().fresh() ? "hit" : "stale";
        }
        return this instanceof Failed ? "error" : this == MISS ? "miss" : "unusable";
    }

    static Lookup hit(CapturedResponse response, CapturedResponse stored, ItemAge age, boolean wonRefresh) {
        return new Hit(response, stored, age, wonRefresh);
    }

    static Lookup failed(Throwable failure) {
        return new Failed(failure);
    }

    /**
     * No item this client can take; the two are different outcomes for the client and the
     * meters.
     */
    enum Absent implements Lookup {

        MISS, UNUSABLE

    }

    /**
     * An item this client can take, fresh or stale.
     *
     * @param response what a client is sent for it
     * @param stored the answer as the item holds it, without what a hit adds: the base of
     * a revalidation
     * @param age where it stands against its freshness
     * @param wonRefresh whether memcached chose this lookup, of all replicas', to refresh
     * it early
     */
    record Hit(CapturedResponse response, CapturedResponse stored, ItemAge age, boolean wonRefresh) implements Lookup {
    }

    /**
     * memcached could not say.
     *
     * @param failure why: a timeout, an open circuit, or another failure
     */
    record Failed(Throwable failure) implements Lookup {
    }

}
