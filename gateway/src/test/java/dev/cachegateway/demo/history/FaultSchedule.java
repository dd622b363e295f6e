package dev.cachegateway.demo.history;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.demo.history.History.Fault;

/**
 * Faults injected while a history runs, one at a time, in an order and with timings its
 * seed decides: a pause and a fault's length each, until the run ends. Each fault is
 * recorded in the history with when it began and when it was healed, so that the checks
 * excuse what the documentation excuses during it, and no more.
 */
final class FaultSchedule implements AutoCloseable {

    /** What can go wrong. */
    enum Kind {

        /**
         * A memcached server frozen ({@code docker pause}): its connections stay open and
         * nothing answers.
         */
        MEMCACHED_PAUSED,
        /** A memcached server killed and started again on the same port, empty. */
        MEMCACHED_KILLED,
        /** Every origin answer delayed beyond the lock timeout. */
        ORIGIN_SLOW,
        /** Every origin answer a 503. */
        ORIGIN_FAILING,
        /** The origin's port closed, connections refused, then opened again. */
        ORIGIN_REFUSING,
        /**
         * A gateway's whole JVM stopped ({@code SIGSTOP}), then let go on; gateways in
         * processes only.
         */
        GATEWAY_PAUSED;

        static final Set<Kind> ALL = EnumSet.allOf(Kind.class);

        static final Set<Kind> IN_THIS_JVM = EnumSet.complementOf(EnumSet.of(GATEWAY_PAUSED));

        static final Set<Kind> NONE = EnumSet.noneOf(Kind.class);

        static final Set<Kind> MEMCACHED = EnumSet.of(MEMCACHED_PAUSED, MEMCACHED_KILLED);

        static final Set<Kind> ORIGIN = EnumSet.of(ORIGIN_SLOW, ORIGIN_FAILING, ORIGIN_REFUSING);

    }

    /**
     * One fault the seed chose: after how long a pause, to which memcached server or
     * gateway, and for how long.
     */
    record Planned(Kind kind, int node, int afterMillis, int forMillis) {
    }

    private final List<Planned> plan;

    private final History history;

    private final MemcachedNodes memcached;

    private final VersionedOrigin origin;

    private final List<GatewayProcess> gateways;

    private final Duration slowBy;

    private final Thread injecting;

    // Not an interrupt, which could land in a Docker call and leave a fault on.
    private final CountDownLatch ended = new CountDownLatch(1);

    /**
     * @param slowBy how long a slow origin takes to answer
     */
    FaultSchedule(long seed, Set<Kind> kinds, History history, TwoGateways setup, Duration slowBy) {
        this.memcached = setup.memcached;
        this.origin = setup.origin;
        this.gateways = setup.processes;
        // A gateway in this JVM cannot be stopped alone.
        List<Kind> possible = kinds.stream()
            .filter(kind -> kind != Kind.GATEWAY_PAUSED || !gateways.isEmpty())
            .toList();
        this.plan = plan(new Random(seed ^ 0x5DEECE66DL), possible, Math.max(memcached.size(), gateways.size()));
        this.history = history;
        this.slowBy = slowBy;
        this.injecting = new Thread(this::inject, "fault-schedule");
    }

    // More faults than a run lasts for; those left when it ends are never injected.
    private static List<Planned> plan(Random random, List<Kind> kinds, int nodes) {
        List<Planned> plan = new ArrayList<>();
        for (int i = 0; !kinds.isEmpty() && i < 100; i++) {
            plan.add(new Planned(kinds.get(random.nextInt(kinds.size())), random.nextInt(nodes),
                    300 + random.nextInt(900), 500 + random.nextInt(1500)));
        }
        return plan;
    }

    FaultSchedule start() {
        injecting.start();
        return this;
    }

    private void inject() {
        for (Planned fault : plan) {
            if (!sleep(fault.afterMillis())) {
                return;
            }
            long startedAt = System.nanoTime();
            begin(fault);
            boolean goOn = sleep(fault.forMillis());
            end(fault);
            history.add(new Fault(fault.kind(), startedAt, System.nanoTime()));
            if (!goOn) {
                return;
            }
        }
    }

    private void begin(Planned fault) {
        switch (fault.kind()) {
            case MEMCACHED_PAUSED -> memcached.pause(fault.node() % memcached.size());
            case MEMCACHED_KILLED -> memcached.kill(fault.node() % memcached.size());
            case GATEWAY_PAUSED -> gateways.get(fault.node() % gateways.size()).pause();
            case ORIGIN_SLOW -> origin.answer(VersionedOrigin.Mode.SLOW, slowBy);
            case ORIGIN_FAILING -> origin.answer(VersionedOrigin.Mode.FAILING, Duration.ZERO);
            case ORIGIN_REFUSING -> origin.refuse();
        }
    }

    private void end(Planned fault) {
        switch (fault.kind()) {
            case MEMCACHED_PAUSED, MEMCACHED_KILLED -> memcached.heal(fault.node() % memcached.size());
            case GATEWAY_PAUSED -> gateways.get(fault.node() % gateways.size()).resume();
            case ORIGIN_SLOW, ORIGIN_FAILING -> origin.answer(VersionedOrigin.Mode.WELL, Duration.ZERO);
            case ORIGIN_REFUSING -> origin.reopen();
        }
    }

    // False once the run has ended.
    private boolean sleep(int millis) {
        try {
            return !ended.await(millis, TimeUnit.MILLISECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Ends the fault under way, if any, and injects no more. */
    @Override
    public void close() throws InterruptedException {
        ended.countDown();
        injecting.join(Duration.ofSeconds(30).toMillis());
    }

}
