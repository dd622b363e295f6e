package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Misses for one key that arrive while another is on its way to the backend, as nginx's
 * {@code proxy_cache_lock}: the first request for a key leads and asks the backend; the
 * others follow and wait for its answer instead of asking too. A shared answer stays here
 * until it is in memcached, so that no request falls into the gap between the leader's
 * answer and its store and asks the backend again; and, for a {@link #GRACE} after that,
 * for the requests whose lookup was sent before the store ended, while one sent after it
 * leads. A write to the key ends all that: no request that arrives after it joins a lead
 * from before it.
 */
public final class InFlightRequests {

    /**
     * How long an ended lead still answers the requests that enter for its key: those
     * whose lookup was on its way while the store landed, however long the gateway took
     * to hand them its answer.
     */
    static final Duration GRACE = Duration.ofSeconds(1);

    private final ConcurrentMap<String, Flight> leaders = new ConcurrentHashMap<>();

    /**
     * Joins the requests for {@code key} whose lookup was sent at {@code lookedUpAt}, by
     * {@link System#nanoTime()}: as their leader if none is in flight, or if the one in
     * flight ended before that lookup, else as a follower.
     */
    public Ticket enter(String key, long lookedUpAt) {
        Flight mine = Flight.start();
        while (true) {
            Flight current = leaders.putIfAbsent(key, mine);
            if (current == null) {
                return new Ticket(leaders, key, mine, true);
            }
            if (!current.endedBefore(lookedUpAt)) {
                return new Ticket(leaders, key, current, false);
            }
            if (leaders.replace(key, current, mine)) {
                return new Ticket(leaders, key, mine, true);
            }
        }
    }

    /**
     * A follower's ticket if a request for {@code key} is in flight, its answer not
     * stored yet and its client still there; never leads.
     */
    public Optional<Ticket> follow(String key) {
        Flight current = leaders.get(key);
        return current != null && !current.ended() && !current.clientLeft().get()
                ? Optional.of(new Ticket(leaders, key, current, false)) : Optional.empty();
    }

    /**
     * Lets no later request join the lead in flight for {@code key}, if there is one: a
     * write changed what it fetches. The requests that joined it already keep waiting for
     * its answer.
     */
    public void forget(String key) {
        leaders.remove(key);
    }

    /**
     * How many keys have a leader in flight now, or one that ended within the
     * {@link #GRACE}.
     */
    public int size() {
        return leaders.size();
    }

    /** How many leads are still on their way to the backend or into memcached. */
    public long running() {
        return leaders.values().stream().distinct().filter(flight -> !flight.ended()).count();
    }

}
