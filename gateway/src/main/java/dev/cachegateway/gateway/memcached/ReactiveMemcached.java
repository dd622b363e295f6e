package dev.cachegateway.gateway.memcached;

import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import net.spy.memcached.MemcachedClient;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationFuture;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * memcached as {@link Mono}s. Every call returns at once: spymemcached's futures are bridged through their
 * completion listeners, never through a blocking {@code get()}, and a Reactor timeout cancels an operation that
 * takes too long. spymemcached's own futures never time out unless somebody blocks on them.
 */
public class ReactiveMemcached implements AutoCloseable {

    private final MemcachedClient client;

    private final ExecutorService listeners;

    private final RawItemTranscoder transcoder;

    private final Duration timeout;

    private final Duration shutdownTimeout;

    ReactiveMemcached(MemcachedClient client, ExecutorService listeners, Duration timeout, Duration shutdownTimeout) {
        this.client = client;
        this.listeners = listeners;
        this.transcoder = new RawItemTranscoder(client.getTranscoder().getMaxSize());
        this.timeout = timeout;
        this.shutdownTimeout = shutdownTimeout;
    }

    /**
     * The item under {@code key}, or an empty Mono on a miss. Fails on a timeout, on a lost connection, on a full
     * operation queue and on a key memcached cannot take.
     */
    public Mono<CachedItem> get(String key) {
        return Mono.<CachedItem>create(sink -> {
            GetFuture<CachedItem> future = client.asyncGet(key, transcoder);
            sink.onCancel(() -> future.cancel(false));
            future.addListener(done -> complete(sink, done));
        }).timeout(timeout);
    }

    /** Stores {@code item} under {@code key} for {@code ttlSeconds} (0: no expiry); true if memcached took it. */
    public Mono<Boolean> set(String key, int ttlSeconds, CachedItem item) {
        return operation(() -> client.set(key, ttlSeconds, item, transcoder));
    }

    /** Deletes {@code key}; true if it was there. */
    public Mono<Boolean> delete(String key) {
        return operation(() -> client.delete(key));
    }

    /** How many of the configured servers have a live connection now; asks nothing of them. */
    public int availableServers() {
        return client.getAvailableServers().size();
    }

    /** How many servers are configured. */
    public int configuredServers() {
        return client.getNodeLocator().getAll().size();
    }

    private Mono<Boolean> operation(Supplier<OperationFuture<Boolean>> start) {
        return Mono.<Boolean>create(sink -> {
            OperationFuture<Boolean> future = start.get();
            sink.onCancel(() -> future.cancel());
            future.addListener(done -> complete(sink, done));
        }).timeout(timeout);
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
