package dev.cachegateway.gateway.memcached.operation;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * {@code memcached.operations}: how long the operations that reached one memcached server
 * took, by operation and outcome; and {@code memcached.operations.delayed}: the
 * operations given up on because the gateway itself was paused or behind, which are
 * memcached's failures in neither meter nor breaker. The meters are made once, not looked
 * up per request.
 */
public final class OperationTimers {

    // Buckets around the 100 ms operation timeout, so that a dashboard or an alert can
    // tell a p99 from the timeout; ten, not the sixty-odd of a percentile histogram, for
    // each node, operation and outcome. A management.metrics.distribution.slo setting for
    // memcached.operations replaces them.
    private static final Duration[] BUCKETS = { Duration.ofMillis(1).dividedBy(2), Duration.ofMillis(1),
            Duration.ofMillis(2), Duration.ofMillis(5), Duration.ofMillis(10), Duration.ofMillis(25),
            Duration.ofMillis(50), Duration.ofMillis(100), Duration.ofMillis(250), Duration.ofMillis(500) };

    private final Pair get;

    private final Pair set;

    private final Pair delete;

    private final Pair add;

    private final Pair incr;

    private final Pair gets;

    private final Pair cas;

    private final Pair metaGet;

    private final Pair metaDelete;

    public OperationTimers(MeterRegistry registry, String node) {
        this.get = new Pair(registry, node, "get");
        this.set = new Pair(registry, node, "set");
        this.delete = new Pair(registry, node, "delete");
        this.add = new Pair(registry, node, "add");
        this.incr = new Pair(registry, node, "incr");
        this.gets = new Pair(registry, node, "gets");
        this.cas = new Pair(registry, node, "cas");
        this.metaGet = new Pair(registry, node, "mg");
        this.metaDelete = new Pair(registry, node, "md");
    }

    public Pair get() {
        return get;
    }

    public Pair set() {
        return set;
    }

    public Pair delete() {
        return delete;
    }

    public Pair add() {
        return add;
    }

    public Pair incr() {
        return incr;
    }

    public Pair gets() {
        return gets;
    }

    public Pair cas() {
        return cas;
    }

    /** memcached's meta get, tagged {@code mg} as memcached names it. */
    public Pair metaGet() {
        return metaGet;
    }

    /** memcached's meta delete, tagged {@code md}. */
    public Pair metaDelete() {
        return metaDelete;
    }

    /** One operation's timers for success and failure. */
    public static final class Pair {

        private final Timer success;

        private final Timer failure;

        private final Counter delayed;

        private Pair(MeterRegistry registry, String node, String operation) {
            this.success = timer(registry, node, operation, "success");
            this.failure = timer(registry, node, operation, "failure");
            this.delayed = Counter.builder("memcached.operations.delayed")
                .description("Operations given up on because the gateway, not memcached, used their time")
                .tag("node", node)
                .tag("operation", operation)
                .register(registry);
        }

        public void record(boolean succeeded, long nanos) {
            (succeeded ? success : failure).record(nanos, TimeUnit.NANOSECONDS);
        }

        /**
         * An operation given up on because of the gateway's own delay: no answer from
         * memcached to time.
         */
        public void delayed() {
            delayed.increment();
        }

        private static Timer timer(MeterRegistry registry, String node, String operation, String outcome) {
            return Timer.builder("memcached.operations")
                .description("Operations that reached memcached")
                .tag("node", node)
                .tag("operation", operation)
                .tag("outcome", outcome)
                .serviceLevelObjectives(BUCKETS)
                .register(registry);
        }

    }

}
