package dev.cachegateway.gateway.cache.miss;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import reactor.core.publisher.Sinks;

/**
 * One lead in flight, as its {@link Ticket}s share it.
 *
 * @param answer the leader's answer
 * @param fence the fence it took before it asked the backend, for followers to check
 * @param endedAt when its answer's store ended, by {@link System#nanoTime()}, if it has
 * @param clientLeft the leader's client went away; the lead goes on, and only requests
 * that looked up may join it
 * @param askedAt when the leader asked the backend for the shared answer, by
 * {@link System#currentTimeMillis()}, so that one handed on later is aged by all the time
 * since, as RFC 9111 4.2.3 counts a response's delay into its age
 */
record Flight(Sinks.One<CapturedResponse> answer, Sinks.One<Fence> fence, AtomicLong endedAt, AtomicBoolean clientLeft,
        AtomicLong askedAt) {

    static final long RUNNING = Long.MIN_VALUE;

    static Flight start() {
        return new Flight(Sinks.one(), Sinks.one(), new AtomicLong(RUNNING), new AtomicBoolean(), new AtomicLong());
    }

    boolean ended() {
        return endedAt.get() != RUNNING;
    }

    // A lookup sent after the store ended found memcached as the store left it: this lead
    // is not its to follow.
    boolean endedBefore(long lookedUpAt) {
        long ended = endedAt.get();
        return ended != RUNNING && lookedUpAt - ended > 0;
    }

}
