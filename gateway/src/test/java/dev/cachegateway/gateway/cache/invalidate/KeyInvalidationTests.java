package dev.cachegateway.gateway.cache.invalidate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.miss.Claim;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.ReplicaLocks;
import dev.cachegateway.gateway.cache.miss.StoresUnderWay;
import dev.cachegateway.gateway.cache.miss.WriteFences;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.HoldingProxy;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A write's invalidation and the misses of other replicas at the same moment: one of them
 * asks the backend for the key, whatever the order the deletes land in.
 */
@Testcontainers
class KeyInvalidationTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private ReactiveMemcached client;

    private ReplicaLocks locks;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofSeconds(5), TestMemcached.breakers(), meters);
        locks = new ReplicaLocks(client, Duration.ofSeconds(5), true);
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    // History seed 5240817173513251216: a replica missed between the write's delete of
    // the item and of the lock, and claimed the lock (or found the "stored" word of the
    // last store and went on without one); the write then deleted the lock, and the
    // other replica's next miss asked the backend as well.
    @ParameterizedTest(name = "the lock said stored before: {0}")
    @ValueSource(booleans = { false, true })
    void aMissWhileAWriteDeletesLeavesTheNextMissALockToWaitOn(boolean lastStoreSaidStored) throws Exception {
        raw.set("/a", 0, 60, "v34".getBytes(StandardCharsets.US_ASCII));
        if (lastStoreSaidStored) {
            raw.set("/a" + LockKey.SUFFIX, 0, 2, "stored".getBytes(StandardCharsets.US_ASCII));
        }
        try (HoldingProxy network = new HoldingProxy(memcached.getHost(),
                memcached.getMappedPort(MemcachedContainer.PORT));
                ReactiveMemcached writing = TestMemcached.connect("127.0.0.1", network.port(), Duration.ofSeconds(5),
                        TestMemcached.breakers(), meters)) {
            TestMemcached.awaitConnected(writing);
            KeyInvalidation invalidation = new KeyInvalidation(writing, NearCache.off(), new InFlightRequests(),
                    new WriteFences(writing), new StoresUnderWay(writing, Duration.ofSeconds(5), true));
            AtomicBoolean invalidated = new AtomicBoolean();
            network.holdAt("delete /a" + LockKey.SUFFIX, 1);
            invalidation.invalidate("/a").subscribe(found -> invalidated.set(true));
            await().atMost(Duration.ofSeconds(5)).until(() -> network.held() > 0);

            boolean duringTheWrite = asksTheBackend();
            network.release();
            await().atMost(Duration.ofSeconds(5)).untilTrue(invalidated);
            boolean afterTheWrite = asksTheBackend();

            assertThat(new boolean[] { duringTheWrite, afterTheWrite }).as("misses that ask the backend")
                .containsOnlyOnce(true);
        }
    }

    // What a replica's miss does: a lookup; on a miss, a claim of the lock; a lock held
    // elsewhere is waited on, one that says "stored" is looked past once.
    private boolean asksTheBackend() throws Exception {
        if (raw.get("/a") != null) {
            return false;
        }
        Claim claim = locks.claim("/a").block(Duration.ofSeconds(5));
        return claim != Claim.TAKEN && !(claim == Claim.STORED && raw.get("/a") != null);
    }

}
