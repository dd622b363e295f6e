package dev.cachegateway.gateway.cache.miss;

import java.util.concurrent.ConcurrentMap;

import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.HeldAnswer;
import reactor.core.publisher.Mono;

/** One request's place among the requests for its key ({@link InFlightRequests}). */
public final class Ticket {

    private final ConcurrentMap<String, Flight> leaders;

    private final String key;

    private final Flight flight;

    private final boolean leads;

    private volatile boolean shared;

    Ticket(ConcurrentMap<String, Flight> leaders, String key, Flight flight, boolean leads) {
        this.leaders = leaders;
        this.key = key;
        this.flight = flight;
        this.leads = leads;
    }

    boolean leads() {
        return leads;
    }

    /**
     * For a follower: the leader's answer, aged by the time since the leader asked for
     * it, or empty if the leader had none to share.
     */
    Mono<CapturedResponse> answer() {
        return flight.answer()
            .asMono()
            .map(shared -> HeldAnswer.aged(shared, System.currentTimeMillis() - flight.askedAt().get()));
    }

    /** For a follower: the leader's fence, or empty if it ended before it took one. */
    Mono<Fence> fence() {
        return flight.fence().asMono();
    }

    /** For the leader: the fence it took, before it asks the backend. */
    void fenced(Fence fence) {
        flight.fence().tryEmitValue(fence);
    }

    /**
     * For the leader: its client went away, and the lead goes on ({@link OutlivesClient})
     * for the requests that wait for it and those whose lookup misses. A request that has
     * not looked up does not join it: it may be for another variant, which memcached may
     * hold, and it would wait on an answer no client is waiting for.
     */
    void clientLeft() {
        flight.clientLeft().set(true);
    }

    /**
     * For a follower that found a write since the lead began: no later request joins that
     * lead either.
     */
    void leave() {
        leaders.remove(key, flight);
    }

    /**
     * For the leader: hands its answer, which the backend was asked for at
     * {@code askedAt}, by {@link System#currentTimeMillis()}, to every follower, and to
     * every request for the key that arrives until {@link #end}. It ages from then,
     * however long the gateway took to receive and share it.
     */
    void share(CapturedResponse response, long askedAt) {
        shared = true;
        flight.askedAt().set(askedAt);
        flight.answer().tryEmitValue(response);
    }

    /**
     * For the leader: ends the lead if it shared nothing, so that followers ask the
     * backend themselves; true if it shared nothing, whether this call or an earlier one
     * ended it. A shared answer stays until {@link #end}. Safe to call more than once; it
     * must be called however the lead ends.
     */
    boolean release() {
        flight.fence().tryEmitEmpty();
        if (flight.answer().tryEmitEmpty().isSuccess()) {
            leaders.remove(key, flight);
            return true;
        }
        // Ended already: on an error, the lead's own doFinally runs after the one that
        // wraps it.
        return !shared;
    }

    /**
     * For the leader: the shared answer is in memcached now, or will not be; later
     * requests look it up, and only those whose lookup was sent before now follow, for
     * the {@link InFlightRequests#GRACE}.
     */
    void end() {
        end(key);
    }

    /**
     * The same, for a lead under the key of one variant ({@code Variants.flightKey}): a
     * request whose lookup of {@code primary} missed just before the store landed enters
     * under that key, so the ended lead stands there too, unless another lead is in
     * flight there.
     */
    void end(String primary) {
        if (flight.endedAt().compareAndSet(Flight.RUNNING, System.nanoTime())) {
            flight.answer().tryEmitEmpty();
            flight.fence().tryEmitEmpty();
            if (!primary.equals(key)) {
                leaders.compute(primary, (any, current) -> current == null || current.ended() ? flight : current);
            }
            Mono.delay(InFlightRequests.GRACE).subscribe(tick -> {
                leaders.remove(key, flight);
                leaders.remove(primary, flight);
            });
        }
    }

}
