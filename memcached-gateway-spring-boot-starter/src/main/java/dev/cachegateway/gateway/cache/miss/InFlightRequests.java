package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.HeldAnswer;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

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

    // The leader's answer, the fence it took before it asked the backend, for followers
    // to check, and when its answer's store ended, by System.nanoTime(), if it has.
    // clientLeft: the leader's client went away; the lead goes on, and only requests that
    // looked up may join it. askedAt: when the leader asked the backend for the shared
    // answer, by System.currentTimeMillis(), so that one handed on later is aged by all
    // the time since, as RFC 9111 4.2.3 counts a response's delay into its age.
    private record Flight(Sinks.One<CapturedResponse> answer, Sinks.One<Fence> fence, AtomicLong endedAt,
            AtomicBoolean clientLeft, AtomicLong askedAt) {

        static final long RUNNING = Long.MIN_VALUE;

        static Flight start() {
            return new Flight(Sinks.one(), Sinks.one(), new AtomicLong(RUNNING), new AtomicBoolean(), new AtomicLong());
        }

        boolean ended() {
            return endedAt.get() != RUNNING;
        }

        // A lookup sent after the store ended found memcached as the store left it: this
        // lead is not its to follow.
        boolean endedBefore(long lookedUpAt) {
            long ended = endedAt.get();
            return ended != RUNNING && lookedUpAt - ended > 0;
        }
    }

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
                return new Ticket(key, mine, true);
            }
            if (!current.endedBefore(lookedUpAt)) {
                return new Ticket(key, current, false);
            }
            if (leaders.replace(key, current, mine)) {
                return new Ticket(key, mine, true);
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
                ? Optional.of(new Ticket(key, current, false)) : Optional.empty();
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

    /** One request's place among the requests for its key. */
    public final class Ticket {

        private final String key;

        private final Flight flight;

        private final boolean leads;

        private volatile boolean shared;

        private Ticket(String key, Flight flight, boolean leads) {
            this.key = key;
            this.flight = flight;
            this.leads = leads;
        }

        boolean leads() {
            return leads;
        }

        /**
         * For a follower: the leader's answer, aged by the time since the leader asked
         * for it, or empty if the leader had none to share.
         */
        Mono<CapturedResponse> answer() {
            return flight.answer()
                .asMono()
                .map(shared -> HeldAnswer.aged(shared, System.currentTimeMillis() - flight.askedAt().get()));
        }

        /**
         * For a follower: the leader's fence, or empty if it ended before it took one.
         */
        Mono<Fence> fence() {
            return flight.fence().asMono();
        }

        /** For the leader: the fence it took, before it asks the backend. */
        void fenced(Fence fence) {
            flight.fence().tryEmitValue(fence);
        }

        /**
         * For the leader: its client went away, and the lead goes on
         * ({@link OutlivesClient}) for the requests that wait for it and those whose
         * lookup misses. A request that has not looked up does not join it: it may be for
         * another variant, which memcached may hold, and it would wait on an answer no
         * client is waiting for.
         */
        void clientLeft() {
            flight.clientLeft().set(true);
        }

        /**
         * For a follower that found a write since the lead began: no later request joins
         * that lead either.
         */
        void leave() {
            leaders.remove(key, flight);
        }

        /**
         * For the leader: hands its answer to every follower, and to every request for
         * the key that arrives until {@link #end}; it is as old as its own {@code Age}
         * says now.
         */
        void share(CapturedResponse response) {
            share(response, System.currentTimeMillis());
        }

        /**
         * The same for an answer the backend was asked for at {@code askedAt}, by
         * {@link System#currentTimeMillis()}: it ages from then, however long the gateway
         * took to receive and share it.
         */
        void share(CapturedResponse response, long askedAt) {
            shared = true;
            flight.askedAt().set(askedAt);
            flight.answer().tryEmitValue(response);
        }

        /**
         * For the leader: ends the lead if it shared nothing, so that followers ask the
         * backend themselves; true if it shared nothing, whether this call or an earlier
         * one ended it. A shared answer stays until {@link #end}. Safe to call more than
         * once; it must be called however the lead ends.
         */
        boolean release() {
            flight.fence().tryEmitEmpty();
            if (flight.answer().tryEmitEmpty().isSuccess()) {
                leaders.remove(key, flight);
                return true;
            }
            // Ended already: on an error, the lead's own doFinally runs after the one
            // that wraps it.
            return !shared;
        }

        /**
         * For the leader: the shared answer is in memcached now, or will not be; later
         * requests look it up, and only those whose lookup was sent before now follow,
         * for the {@link #GRACE}.
         */
        void end() {
            end(key);
        }

        /**
         * The same, for a lead under the key of one variant ({@code Variants.flightKey}):
         * a request whose lookup of {@code primary} missed just before the store landed
         * enters under that key, so the ended lead stands there too, unless another lead
         * is in flight there.
         */
        void end(String primary) {
            if (flight.endedAt().compareAndSet(Flight.RUNNING, System.nanoTime())) {
                flight.answer().tryEmitEmpty();
                flight.fence().tryEmitEmpty();
                if (!primary.equals(key)) {
                    leaders.compute(primary, (any, current) -> current == null || current.ended() ? flight : current);
                }
                Mono.delay(GRACE).subscribe(tick -> {
                    leaders.remove(key, flight);
                    leaders.remove(primary, flight);
                });
            }
        }

    }

}
