package dev.cachegateway.gateway.memcached;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * {@code memcached.operations}: how long the operations that reached one memcached server took, by operation and
 * outcome. The timers are made once, not looked up per request.
 */
final class OperationTimers {

    private final Pair get;

    private final Pair set;

    private final Pair delete;

    private final Pair add;

    OperationTimers(MeterRegistry registry, String node) {
        this.get = new Pair(registry, node, "get");
        this.set = new Pair(registry, node, "set");
        this.delete = new Pair(registry, node, "delete");
        this.add = new Pair(registry, node, "add");
    }

    Pair get() {
        return get;
    }

    Pair set() {
        return set;
    }

    Pair delete() {
        return delete;
    }

    Pair add() {
        return add;
    }

    /** One operation's timers for success and failure. */
    static final class Pair {

        private final Timer success;

        private final Timer failure;

        private Pair(MeterRegistry registry, String node, String operation) {
            this.success = timer(registry, node, operation, "success");
            this.failure = timer(registry, node, operation, "failure");
        }

        void record(boolean succeeded, long nanos) {
            (succeeded ? success : failure).record(nanos, TimeUnit.NANOSECONDS);
        }

        private static Timer timer(MeterRegistry registry, String node, String operation, String outcome) {
            return Timer.builder("memcached.operations")
                    .description("Operations that reached memcached")
                    .tag("node", node)
                    .tag("operation", operation)
                    .tag("outcome", outcome)
                    .register(registry);
        }
    }
}
