package dev.cachegateway.gateway.cache.miss;

import java.time.Duration;

import dev.cachegateway.gateway.cache.key.WriteMarkKey;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
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
import reactor.test.StepVerifier;

@Testcontainers
class WriteFencesTests {

    private static final Duration DEADLINE = Duration.ofSeconds(5);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    private WriteFences fences;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), new SimpleMeterRegistry());
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        fences = new WriteFences(client);
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    @Test
    void allowsTheStoreOfAFetchThatNoWriteOvertook() {
        Fence fence = fences.take("/a").block(DEADLINE);

        StepVerifier.create(fences.allowsStore(fence)).expectNext(true).verifyComplete();
    }

    @Test
    void allowsTheStoreOfAFetchThatBeganAfterTheLastWrite() {
        fences.mark("/a").block(DEADLINE);
        Fence fence = fences.take("/a").block(DEADLINE);

        StepVerifier.create(fences.allowsStore(fence)).expectNext(true).verifyComplete();
        StepVerifier.create(fences.allowsJoining(fence)).expectNext(true).verifyComplete();
    }

    @Test
    void forbidsTheStoreAndTheJoiningOfAFetchThatAWriteOvertook() {
        fences.mark("/a").block(DEADLINE);
        Fence fence = fences.take("/a").block(DEADLINE);

        fences.mark("/a").block(DEADLINE);

        StepVerifier.create(fences.allowsStore(fence)).expectNext(false).verifyComplete();
        StepVerifier.create(fences.allowsJoining(fence)).expectNext(false).verifyComplete();
    }

    @Test
    void takesAMarkThatMemcachedLostSinceForAWrite() throws Exception {
        fences.mark("/a").block(DEADLINE);
        Fence fence = fences.take("/a").block(DEADLINE);

        // As memcached's eviction would leave it.
        raw.delete(WriteMarkKey.of("/a"));

        StepVerifier.create(fences.allowsStore(fence)).expectNext(false).verifyComplete();
    }

    @Test
    void forbidsTheStoreAndTheJoiningOfAFetchWhoseFenceMemcachedCouldNotRead() {
        Fence unread = new Fence("/a", null, System.nanoTime());

        StepVerifier.create(fences.allowsStore(unread)).expectNext(false).verifyComplete();
        StepVerifier.create(fences.allowsJoining(unread)).expectNext(false).verifyComplete();
    }

    @Test
    void forbidsTheJoiningOfAFetchWhenMemcachedFailsAfterAWriteMarkedIt() throws Exception {
        Fence fence = fences.take("/a").block(DEADLINE);
        fences.mark("/a").block(DEADLINE);

        client.close();

        StepVerifier.create(fences.allowsJoining(fence)).expectNext(false).verifyComplete();
    }

    @Test
    void forbidsTheStoreOfAFetchOlderThanAMarkLives() {
        Fence old = new Fence("/a", "", System.nanoTime() - WriteFences.MAX_FETCH.toNanos() - 1);

        StepVerifier.create(fences.allowsStore(old)).expectNext(false).verifyComplete();
    }

    @Test
    void takesAFenceThatNeverAllowsAStoreWhenMemcachedFails() throws Exception {
        client.close();

        Fence fence = fences.take("/a").block(DEADLINE);

        StepVerifier.create(fences.allowsStore(fence)).expectNext(false).verifyComplete();
    }

}
