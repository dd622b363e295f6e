package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

@Testcontainers
class ReplicaLocksTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    private ReplicaLocks locks;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), new SimpleMeterRegistry());
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        locks = new ReplicaLocks(client, Duration.ofMillis(1500), true);
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    @Test
    void givesTheLockToOneReplicaForTheLockTimeoutRoundedUpToSeconds() throws Exception {
        Claim mine = locks.claim("/a").block(Duration.ofSeconds(5));
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));

        assertThat(mine.taken()).isFalse();
        assertThat(theirs.taken()).isTrue();
        assertThat(raw.ttl("/a" + LockKey.SUFFIX)).isBetween(1L, 2L);
        assertThat(raw.get("/a")).isNull();
    }

    @Test
    void deletesTheLockWhenItIsReleased() throws Exception {
        Claim mine = locks.claim("/a").block(Duration.ofSeconds(5));

        locks.release(mine);

        raw.awaitAbsent("/a" + LockKey.SUFFIX);
        assertThat(locks.claim("/a").block(Duration.ofSeconds(5)).taken()).isFalse();
    }

    @Test
    void takesNoLockAndLeavesNothingInMemcachedWhenReplicaLocksAreOff() throws Exception {
        ReplicaLocks off = new ReplicaLocks(client, Duration.ofMillis(1500), false);

        assertThat(off.claim("/a").block(Duration.ofSeconds(5))).isSameAs(Claim.NONE);
        assertThat(off.claim("/a").block(Duration.ofSeconds(5))).isSameAs(Claim.NONE);
        assertThat(raw.get("/a" + LockKey.SUFFIX)).isNull();
    }

    @Test
    void takesNoLockForAKeyTooLongToHaveOne() {
        assertThat(locks.claim("/" + "k".repeat(247)).block(Duration.ofSeconds(5))).isSameAs(Claim.NONE);
    }

    @Test
    void findsTheItemAnotherReplicaStoresWhileItHoldsTheLock() throws Exception {
        locks.claim("/a").block(Duration.ofSeconds(5));

        StepVerifier.create(awaitItem("/a"))
            .then(() -> client.set("/a", 60, new CachedItem("{}".getBytes(StandardCharsets.UTF_8), 0))
                .block(Duration.ofSeconds(5)))
            .assertNext(item -> assertThat(item.value()).isEqualTo("{}".getBytes(StandardCharsets.UTF_8)))
            .verifyComplete();
    }

    @Test
    void saysAReplicaStoredItsAnswerToOneThatClaimsJustAfterTheStore() throws Exception {
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));
        client.set("/a", 60, new CachedItem("{}".getBytes(StandardCharsets.UTF_8), 0)).block(Duration.ofSeconds(5));

        locks.stored(theirs);
        await().atMost(Duration.ofSeconds(5)).until(() -> "stored".equals(lockValue("/a")));
        Claim mine = locks.claim("/a").block(Duration.ofSeconds(5));

        assertThat(mine).isSameAs(Claim.STORED);
        assertThat(freshItem("/a").block(Duration.ofSeconds(5)).value())
            .isEqualTo("{}".getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void findsTheItemAtOnceWhenTheReplicaItWaitsForSaysItStoredIt() {
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));

        StepVerifier.create(awaitItem("/a")).then(() -> {
            client.set("/a", 60, new CachedItem("{}".getBytes(StandardCharsets.UTF_8), 0)).block(Duration.ofSeconds(5));
            locks.stored(theirs);
        })
            .assertNext(item -> assertThat(item.value()).isEqualTo("{}".getBytes(StandardCharsets.UTF_8)))
            .verifyComplete();
    }

    @Test
    void stopsWaitingAtOnceWhenTheItemIsGoneAfterTheStore() throws Exception {
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));
        locks.stored(theirs);
        await().atMost(Duration.ofSeconds(5)).until(() -> "stored".equals(lockValue("/a")));

        StepVerifier.create(awaitItem("/a")).expectComplete().verify(Duration.ofMillis(1000));
    }

    @Test
    void givesALockThatSaysStoredWithoutItsItemToOneOfTheReplicasThatClaimItPastTheWord() throws Exception {
        locks.stored(locks.claim("/a").block(Duration.ofSeconds(5)));
        await().atMost(Duration.ofSeconds(5)).until(() -> "stored".equals(lockValue("/a")));
        ReplicaLocks other = new ReplicaLocks(client, Duration.ofSeconds(5), true);

        // Both found the word, and no item: a purge by tag took it.
        Claim first = locks.claimPastStored("/a").block(Duration.ofSeconds(5));
        Claim second = other.claimPastStored("/a").block(Duration.ofSeconds(5));

        assertThat(first).isInstanceOf(HeldLock.class);
        assertThat(second).isSameAs(Claim.TAKEN);
        assertThat(lockValue("/a")).startsWith("locked ");
        raw.delete("/a" + LockKey.SUFFIX);
        assertThat(other.claimPastStored("/a").block(Duration.ofSeconds(5))).isInstanceOf(HeldLock.class);
    }

    @Test
    void givesBackOnlyItsOwnLockWhenAWriteLetAnotherReplicaTakeIt() throws Exception {
        Claim before = locks.claim("/a").block(Duration.ofSeconds(5));
        // As a write does: it deletes the lock, and a miss after it takes the next one.
        raw.delete("/a" + LockKey.SUFFIX);
        Claim after = locks.claim("/a").block(Duration.ofSeconds(5));
        String theirs = lockValue("/a");

        locks.release(before);
        locks.stored(before);
        StepVerifier.create(locks.storing("/a", before)).verifyComplete();

        assertThat(after).isInstanceOf(HeldLock.class);
        await().during(Duration.ofMillis(200))
            .atMost(Duration.ofSeconds(5))
            .until(() -> theirs.equals(lockValue("/a")));
    }

    @Test
    void letsAWriteWaitForAStoreUnderWayAndNotForAFetch() throws Exception {
        Claim mine = locks.claim("/a").block(Duration.ofSeconds(5));

        StoresUnderWay stores = new StoresUnderWay(client, Duration.ofMillis(1500), true);

        StepVerifier.create(stores.await("/a")).expectNext(false).verifyComplete();
        locks.storing("/a", mine).block(Duration.ofSeconds(5));
        StepVerifier.create(stores.await("/a")).then(() -> locks.stored(mine)).expectNext(true).verifyComplete();
    }

    // As a body route finds an item: fresh by its TTL.
    private Mono<CachedItem> freshItem(String key) {
        return client.lookup(key, 0).filter(found -> ItemAge.of(found).fresh()).map(MetaItem::item);
    }

    private Mono<CachedItem> awaitItem(String key) {
        return locks.awaitItem(key, () -> freshItem(key), locks.lockTimeout());
    }

    private String lockValue(String key) throws Exception {
        MemcachedTextClient.Item lock = raw.get(key + LockKey.SUFFIX);
        return lock == null ? null : new String(lock.value(), StandardCharsets.US_ASCII);
    }

    @Test
    void stopsWaitingAtOnceWhenTheLockGoesWithoutAnItem() {
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));

        StepVerifier.create(awaitItem("/a"))
            .then(() -> locks.release(theirs))
            .expectComplete()
            .verify(Duration.ofMillis(1000));
    }

}
