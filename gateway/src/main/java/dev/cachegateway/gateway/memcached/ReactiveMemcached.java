package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.reactor.circuitbreaker.operator.CircuitBreakerOperator;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * memcached as {@link Mono}s. Every call returns at once: spymemcached's futures are bridged through their
 * completion listeners, never through a blocking {@code get()}, and a Reactor timeout cancels an operation that
 * takes too long, since spymemcached's own futures never time out unless somebody blocks on them. A circuit
 * breaker fails operations at once while memcached is failing.
 */
public class ReactiveMemcached implements AutoCloseable {

    private static final String PROBE_KEY = "memcached-gateway:health";

    private final MemcachedClient client;

    private final ExecutorService listeners;

    private final RawItemTranscoder transcoder;

    private final Duration timeout;

    private final Duration shutdownTimeout;

    private final CircuitBreaker breaker;

    private final OperationTimers timers;

    ReactiveMemcached(MemcachedClient client, ExecutorService listeners, MemcachedProperties properties,
            CircuitBreaker breaker, OperationTimers timers) {
        this.client = client;
        this.listeners = listeners;
        this.transcoder = new RawItemTranscoder(client.getTranscoder().getMaxSize());
        this.timeout = properties.getOperationTimeout();
        this.shutdownTimeout = properties.getShutdownTimeout();
        this.breaker = breaker;
        this.timers = timers;
    }

    /**
     * The item under {@code key}, or an empty Mono on a miss. Fails on a timeout, a lost connection, a full
     * operation queue, an open circuit breaker, and a key memcached cannot take.
     */
    public Mono<CachedItem> get(String key) {
        return guarded(timers.get(), lookup(key));
    }

    /** Stores {@code item} under {@code key} for {@code ttlSeconds} (0: no expiry); true if memcached took it. */
    public Mono<Boolean> set(String key, int ttlSeconds, CachedItem item) {
        return guarded(timers.set(), operation(() -> client.set(key, ttlSeconds, item, transcoder)));
    }

    /** Stores {@code item} under {@code key} only if no item is there; true if memcached took it. */
    public Mono<Boolean> add(String key, int ttlSeconds, CachedItem item) {
        return guarded(timers.add(), operation(() -> client.add(key, ttlSeconds, item, transcoder)));
    }

    /** Deletes {@code key}; true if it was there. */
    public Mono<Boolean> delete(String key) {
        return guarded(timers.delete(), operation(() -> client.delete(key)));
    }

    /** A lookup that goes to memcached whatever the circuit breaker says: the health check's question. */
    public Mono<Void> probe() {
        return lookup(PROBE_KEY).then();
    }

    /** How many of the configured servers have a live connection now; asks nothing of them. */
    public int availableServers() {
        return client.getAvailableServers().size();
    }

    /** How many servers are configured. */
    public int configuredServers() {
        return client.getNodeLocator().getAll().size();
    }

    public CircuitBreaker.State circuitBreakerState() {
        return breaker.getState();
    }

    private Mono<CachedItem> lookup(String key) {
        return Mono.<CachedItem>create(sink -> {
            GetFuture<CachedItem> future = client.asyncGet(key, transcoder);
            sink.onCancel(() -> future.cancel(false));
            future.addListener(done -> complete(sink, done));
        }).timeout(timeout);
    }

    private Mono<Boolean> operation(Supplier<OperationFuture<Boolean>> start) {
        return Mono.<Boolean>create(sink -> {
            OperationFuture<Boolean> future = start.get();
            sink.onCancel(() -> future.cancel());
            future.addListener(done -> complete(sink, done));
        }).timeout(timeout);
    }

    // Timed inside the breaker: what the breaker turns away never reaches memcached and is not a lookup.
    private <T> Mono<T> guarded(OperationTimers.Pair timer, Mono<T> operation) {
        return Mono.defer(() -> {
            long start = System.nanoTime();
            return operation.doOnEach(signal -> {
                if (signal.isOnComplete() || signal.isOnError()) {
                    timer.record(signal.isOnComplete(), System.nanoTime() - start);
                }
            });
        }).transformDeferred(CircuitBreakerOperator.of(breaker));
    }

    // The listener runs once the future is done, so get() returns at once; it only unwraps the outcome.
    @SuppressWarnings("unchecked")
    private static <T> void complete(MonoSink<T> sink, Future<?> done) {
        try {
            sink.success((T) done.get());
        }
        catch (ExecutionException ex) {
            sink.error(ex.getCause() != null ? ex.getCause() : ex);
        }
        catch (CancellationException ex) {
            sink.error(ex);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            sink.error(ex);
        }
    }

    /** Lets queued operations reach memcached for up to the shutdown timeout, then closes the connections. */
    @Override
    public void close() {
        client.shutdown(shutdownTimeout.toMillis(), TimeUnit.MILLISECONDS);
        listeners.shutdown();
    }
}
