package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.invalidate.KeyInvalidation;
import dev.cachegateway.gateway.cache.invalidate.WriteInvalidation;
import dev.cachegateway.gateway.cache.key.CacheKeyTemplate;
import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.tag.TagGenerations;
import dev.cachegateway.gateway.cache.trace.CacheSpan;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.HoldingProxy;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

/** Stores that memcached takes its time over keep what the answer said when it came. */
@Testcontainers
class FencedStoreTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private ReactiveMemcached client;

    private WriteFences fences;

    private ReplicaLocks locks;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), meters);
        fences = new WriteFences(client);
        locks = new ReplicaLocks(client, Duration.ofSeconds(5), true);
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    @Test
    void countsTheAgeOfAnAnswerFromWhenItWasAskedForNotFromWhenMemcachedTookIt() throws Exception {
        FencedStore store = storeThrough(client);
        Fence fence = fences.take("/aged").block(Duration.ofSeconds(5));
        long askedAt = System.currentTimeMillis();
        HttpHeaders headers = new HttpHeaders();
        headers.setDate(askedAt);
        headers.set(HttpHeaders.AGE, "5");
        headers.setCacheControl("public, max-age=60");
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, headers, "{}".getBytes(StandardCharsets.UTF_8));

        // As a memcached that takes two seconds over the checks before the store.
        store.store("/aged", answer, new StoreDecision(null, 60, 0), fence, new Waiters() {

            @Override
            public Mono<Boolean> storing() {
                return Mono.delay(Duration.ofMillis(2200)).thenReturn(true);
            }
        }, askedAt, List.of(), CacheSpan.NONE);

        // Asked in the same second as its Date: the Date tells none of its Age, so all 5
        // s are kept. Aged from the store instead, 2 s would be taken off, and every hit
        // would say the answer is 2 s younger than it is.
        String stored = new String(raw.await("/aged").value(), StandardCharsets.ISO_8859_1);
        assertThat(stored).contains("\r\nAge: 5\r\n");
    }

    @Test
    void aStoreWithoutTheLockTakesItToSaySoAndAWriteMeanwhileWaitsForItBeforeItDeletes() throws Exception {
        try (HoldingProxy network = new HoldingProxy(memcached.getHost(),
                memcached.getMappedPort(MemcachedContainer.PORT));
                ReactiveMemcached storing = TestMemcached.connect("127.0.0.1", network.port(), Duration.ofSeconds(5),
                        TestMemcached.breakers(), meters)) {
            TestMemcached.awaitConnected(storing);
            FencedStore store = storeThrough(storing);
            WriteInvalidation writes = new WriteInvalidation(new KeyInvalidation(client, NearCache.off(),
                    new InFlightRequests(), fences, new StoresUnderWay(client, Duration.ofSeconds(5), true)), meters);
            Queue<String> events = new ConcurrentLinkedQueue<>();
            Fence fence = fences.take("/a").block(Duration.ofSeconds(5));

            // A request that went to the backend alone (its leader failed it): it holds
            // no lock. Its last check for a write passes, and its store is held on its
            // way to memcached.
            network.hold();
            store.store("/a", answer(), new StoreDecision(null, 60, 0), fence,
                    new RecordedStore(new LoneFetch(locks, "/a"), events), System.currentTimeMillis(), List.of(),
                    CacheSpan.NONE);
            await().atMost(Duration.ofSeconds(5)).until(() -> network.held() > 0);
            MockServerWebExchange write = MockServerWebExchange.from(MockServerHttpRequest.put("/a"));
            writes.onSuccess(write, CacheKeyTemplate.parse("$uri"));
            write.getResponse().setStatusCode(HttpStatus.NO_CONTENT);
            write.getResponse().setComplete().subscribe(done -> {
            }, failure -> {
            }, () -> events.add("written"));

            // Without the store's word in the lock the write would delete now, before the
            // store lands, and the old answer would stay in memcached after the write was
            // answered.
            await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
            network.release();
            await().atMost(Duration.ofSeconds(10)).until(() -> events.size() == 2);
            assertThat(events).containsExactly("stored", "written");
            assertThat(raw.get("/a")).isNull();
        }
    }

    @Test
    void aStoreWithoutTheLockIsDroppedWhileAnotherReplicaHoldsIt() throws Exception {
        FencedStore store = storeThrough(client);
        Queue<String> events = new ConcurrentLinkedQueue<>();
        Fence fence = fences.take("/a").block(Duration.ofSeconds(5));
        Claim theirs = locks.claim("/a").block(Duration.ofSeconds(5));

        store.store("/a", answer(), new StoreDecision(null, 60, 0), fence,
                new RecordedStore(new LoneFetch(locks, "/a"), events), System.currentTimeMillis(), List.of(),
                CacheSpan.NONE);

        await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty());
        assertThat(events).containsExactly("stored");
        assertThat(meters.get("memcached.cache.stores").tag("reason", "locked").counter().count()).isEqualTo(1);
        assertThat(raw.get("/a")).isNull();
        assertThat(theirs).isInstanceOf(HeldLock.class);
    }

    // The variants of a key share its lock: the fetch that holds it may be of another
    // variant, and store nothing that answers this one (history seed
    // 5650554954386663365).
    @Test
    void aStoreOfAVariantWithoutTheLockWaitsForTheFetchThatHoldsItRatherThanBeDropped() throws Exception {
        FencedStore store = storeThrough(client);
        Fence fence = fences.take("/v").block(Duration.ofSeconds(5));
        raw.set("/v" + LockKey.SUFFIX, 0, 60, "locked elsewhere".getBytes(StandardCharsets.US_ASCII));
        LoneFetch alone = new LoneFetch(locks, "/v");
        HttpHeaders varying = new HttpHeaders();
        varying.setCacheControl("public, max-age=60");
        varying.set(HttpHeaders.VARY, "Accept-Language");
        HttpHeaders request = new HttpHeaders();
        request.set(HttpHeaders.ACCEPT_LANGUAGE, "fr");
        CapturedResponse french = new HttpFormat(List.of(), List.of())
            .capture(new CapturedResponse(HttpStatus.OK, varying, "{}".getBytes(StandardCharsets.UTF_8)), request);
        alone.share(french, System.currentTimeMillis());

        store.store("/v", french, new StoreDecision(null, 60, 0), fence, alone, System.currentTimeMillis(), List.of(),
                CacheSpan.NONE);
        await().pollDelay(Duration.ofMillis(300)).atMost(Duration.ofSeconds(1)).until(() -> true);
        assertThat(raw.get("/v")).as("stored while the other fetch holds the lock").isNull();
        raw.delete("/v" + LockKey.SUFFIX);

        raw.await("/v");
        assertThat(meters.get("memcached.cache.stores").tag("reason", "locked").counter().count()).isZero();
    }

    // A refresh that follows a store within the second or two its lock says "stored" must
    // be stored too: nobody holds a lock that says so (RevalidationTests found a 304's
    // refresh dropped).
    @Test
    void aStoreWithoutTheLockTakesOverALockThatSaysStored() throws Exception {
        FencedStore store = storeThrough(client);
        Queue<String> events = new ConcurrentLinkedQueue<>();
        Fence fence = fences.take("/a").block(Duration.ofSeconds(5));
        locks.stored(locks.claim("/a").block(Duration.ofSeconds(5)));
        await().atMost(Duration.ofSeconds(5))
            .until(() -> raw.get("/a" + LockKey.SUFFIX) != null
                    && "stored".equals(new String(raw.get("/a" + LockKey.SUFFIX).value(), StandardCharsets.US_ASCII)));

        store.store("/a", answer(), new StoreDecision(null, 60, 0), fence,
                new RecordedStore(new LoneFetch(locks, "/a"), events), System.currentTimeMillis(), List.of(),
                CacheSpan.NONE);

        await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty());
        assertThat(raw.get("/a")).isNotNull();
        assertThat(meters.get("memcached.cache.stores").tag("reason", "locked").counter().count()).isZero();
    }

    // A lock that says "stored" tells every replica that claims it to look up the item
    // and, finding none, to ask the backend without a lock: all of them at once. So a
    // store that memcached did not take must give the lock back instead.
    @Test
    void aStoreThatMemcachedDidNotTakeGivesTheLockBackRatherThanSayStored() throws Exception {
        CircuitBreakerRegistry breakers = TestMemcached.breakers();
        try (ReactiveMemcached storing = TestMemcached.connect(memcached.getHost(),
                memcached.getMappedPort(MemcachedContainer.PORT), Duration.ofMillis(500), breakers, meters)) {
            TestMemcached.awaitConnected(storing);
            breakers.circuitBreaker(memcached.getHost() + ":" + memcached.getMappedPort(MemcachedContainer.PORT))
                .transitionToOpenState();
            FencedStore store = storeThrough(storing);
            Queue<String> events = new ConcurrentLinkedQueue<>();
            Fence fence = fences.take("/a").block(Duration.ofSeconds(5));
            LockHold hold = new LockHold(locks, "/a", locks.claim("/a").block(Duration.ofSeconds(5)));

            store.store("/a", answer(), new StoreDecision(null, 60, 0), fence, new HeldStore(hold, events),
                    System.currentTimeMillis(), List.of(), CacheSpan.NONE);

            await().atMost(Duration.ofSeconds(5)).until(() -> !events.isEmpty());
            assertThat(events).containsExactly("not stored");
            raw.awaitAbsent("/a" + LockKey.SUFFIX);
            assertThat(raw.get("/a")).isNull();
        }
    }

    // A store whose items go to memcached through storing, and whose checks go to it
    // directly.
    private FencedStore storeThrough(ReactiveMemcached storing) {
        return new FencedStore(new HttpFormat(List.of(), List.of()),
                new ResponseStore(storing, 8, new CacheMetrics(meters)), fences, client, NearCache.off(),
                new TagGenerations(client, Duration.ofMillis(500)), new CacheMetrics(meters));
    }

    private static CapturedResponse answer() {
        HttpHeaders headers = new HttpHeaders();
        headers.setCacheControl("public, max-age=60");
        return new CapturedResponse(HttpStatus.OK, headers, "{}".getBytes(StandardCharsets.UTF_8));
    }

    /** A fetch that holds the key's lock, as a lead does, telling how its store ended. */
    private record HeldStore(LockHold hold, Queue<String> events) implements Waiters {

        @Override
        public Mono<Boolean> storing() {
            return hold.storing();
        }

        @Override
        public void stored() {
            hold.stored();
            events.add("stored");
        }

        @Override
        public void dropped() {
            hold.release();
            events.add("not stored");
        }
    }

    /** The waiters of a store, telling when it ended. */
    private record RecordedStore(Waiters waiters, Queue<String> events) implements Waiters {

        @Override
        public Mono<Boolean> storing() {
            return waiters.storing();
        }

        @Override
        public void stored() {
            waiters.stored();
            events.add("stored");
        }
    }

}
