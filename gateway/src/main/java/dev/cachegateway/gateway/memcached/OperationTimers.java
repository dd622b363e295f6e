package dev.cachegateway.gateway.memcached;

import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * {@code memcached.operations}: how long the operations that reached memcached took, by operation and outcome.
 * The timers are made once, not looked up per request.
 */
final class OperationTimers {

    private final Pair get;

    private final Pair set;

    private final Pair delete;

    private final Pair add;

    OperationTimers(MeterRegistry registry) {
        this.get = new Pair(registry, "get");
        this.set = new Pair(registry, "set");
        this.delete = new Pair(registry, "delete");
        this.add = new Pair(registry, "add");
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

        private Pair(MeterRegistry registry, String operation) {
            this.success = timer(registry, operation, "success");
            this.failure = timer(registry, operation, "failure");
        }

        void record(boolean succeeded, long nanos) {
            (succeeded ? success : failure).record(nanos, TimeUnit.NANOSECONDS);
        }

        private static Timer timer(MeterRegistry registry, String operation, String outcome) {
            return Timer.builder("memcached.operations")
                    .description("Operations that reached memcached")
                    .tag("operation", operation)
                    .tag("outcome", outcome)
                    .register(registry);
        }
    }
}
