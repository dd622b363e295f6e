package dev.cachegateway.gateway.cache.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.gateway.cache.tag.ItemTags.Stamp;
import dev.cachegateway.gateway.cache.tag.TagGenerations.Verdict;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Mono;

/**
 * Two replicas' knowledge of the generations in one memcached: what a purge through one
 * does to the items and the stores of the other.
 */
@Testcontainers
class TagGenerationsTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private ReactiveMemcached client;

    private TagGenerations here;

    private TagGenerations elsewhere;

    private TagPurge purgeElsewhere;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), new SimpleMeterRegistry());
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.flushAll();
        }
        here = started();
        elsewhere = started();
        purgeElsewhere = new TagPurge(client, elsewhere);
    }

    @AfterEach
    void disconnect() throws Exception {
        here.close();
        elsewhere.close();
        client.close();
    }

    @Test
    void anItemIsSoftenedBySoftPurgesAndPurgedByHardOnesOnTheOtherReplicaWithinASecond() {
        ItemTags stored = stored(List.of("comments", "user-paul"));
        assertThat(judged(stored)).isEqualTo(Verdict.VALID);

        purgeElsewhere.purge("user-paul", true).block(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(1)).until(() -> judged(stored) == Verdict.SOFTENED);

        purgeElsewhere.purge("comments", false).block(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(1)).until(() -> judged(stored) == Verdict.PURGED);
        assertThat(judged(stored(List.of("comments", "user-paul")))).isEqualTo(Verdict.VALID);
    }

    @Test
    void aStoreOfATagSeenForTheFirstTimeIsDroppedWhenThatTagWasPurgedSinceItsFetchBegan() {
        long since = System.nanoTime();
        purgeElsewhere.purge("first-seen", false).block(Duration.ofSeconds(5));

        assertThat(stamps(here, List.of("first-seen"), since).blockOptional(Duration.ofSeconds(5))).isEmpty();
        assertThat(stamps(here, List.of("first-seen"), System.nanoTime()).blockOptional(Duration.ofSeconds(5)))
            .as("the next fetch, which began once the purge was known here")
            .isPresent();
    }

    @Test
    void aStoreOfATagSeenForTheFirstTimeIsNotDroppedForAPurgeOfAnotherTag() {
        long since = System.nanoTime();
        purgeElsewhere.purge("other", false).block(Duration.ofSeconds(5));

        assertThat(stamps(here, List.of("first-seen"), since).blockOptional(Duration.ofSeconds(5))).isPresent();
    }

    @Test
    void aStoreIsDroppedWhenThisReplicaLearnedOfAPurgeOfItsTagAfterItsFetchBegan() {
        ItemTags old = stored(List.of("comments"));
        long since = System.nanoTime();
        purgeElsewhere.purge("comments", false).block(Duration.ofSeconds(5));
        await().atMost(Duration.ofSeconds(1)).until(() -> judged(old) == Verdict.PURGED);

        assertThat(stamps(here, List.of("comments"), since).blockOptional(Duration.ofSeconds(5))).isEmpty();
    }

    @Test
    void aReplicaThatHasNotSeenAPurgeYetStoresNoAnswerWhoseFetchItMayPredate() throws Exception {
        try (TagGenerations late = new TagGenerations(client, Duration.ofSeconds(30))) {
            late.start();
            stored(late, List.of("comments"));
            long since = System.nanoTime();
            purgeElsewhere.purge("comments", false).block(Duration.ofSeconds(5));

            assertThat(stamps(late, List.of("comments"), since).blockOptional(Duration.ofSeconds(5))).isEmpty();
        }
    }

    @Test
    void anItemStoredUnderANewerGenerationIsValidOnAReplicaThatHasNotSeenThePurgeYet() throws Exception {
        try (TagGenerations late = new TagGenerations(client, Duration.ofSeconds(30))) {
            late.start();
            stored(late, List.of("comments"));
            purgeElsewhere.purge("comments", false).block(Duration.ofSeconds(5));

            ItemTags newer = stored(elsewhere, List.of("comments"));

            assertThat(judged(late, newer)).isEqualTo(Verdict.VALID);
        }
    }

    @Test
    void aStoreAfterMemcachedLostAGenerationIsStampedWithTheNewOne() throws Exception {
        ItemTags before = stored(List.of("flushed"));
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.flushAll();
        }

        ItemTags after = stored(List.of("flushed"));

        assertThat(after).isNotEqualTo(before);
        assertThat(judged(elsewhere, after)).isEqualTo(Verdict.VALID);
    }

    @Test
    void anItemWhoseGenerationWasEvictedIsPurgedAndTheNextStoreIsValid() throws Exception {
        ItemTags stored = stored(List.of("evicted"));
        try (MemcachedTextClient raw = MemcachedContainer.textClient(memcached)) {
            raw.delete("%tag:evicted");
        }

        await().atMost(Duration.ofSeconds(1)).until(() -> judged(stored) == Verdict.PURGED);
        assertThat(judged(stored(List.of("evicted")))).isEqualTo(Verdict.VALID);
    }

    // As a lookup judges an item: what is not known yet, or differs, is read first.
    private Verdict judged(ItemTags tags) {
        return judged(here, tags);
    }

    private static Verdict judged(TagGenerations replica, ItemTags tags) {
        return replica.judge(tags, System.nanoTime()).block(Duration.ofSeconds(5));
    }

    private static Mono<List<Stamp>> stamps(TagGenerations replica, List<String> names, long since) {
        return new StampedAnswers(replica).stamps(names, since);
    }

    private TagGenerations started() {
        TagGenerations generations = new TagGenerations(client, Duration.ofMillis(200));
        generations.start();
        return generations;
    }

    // The tags of an item stored now through this replica.
    private ItemTags stored(List<String> names) {
        return stored(here, names);
    }

    // The first store after a start waits for the purge counter to be read.
    private static ItemTags stored(TagGenerations replica, List<String> names) {
        AtomicReference<List<Stamp>> stamps = new AtomicReference<>();
        await().atMost(Duration.ofSeconds(5))
            .until(() -> stamps(replica, names, System.nanoTime()).doOnNext(stamps::set)
                .blockOptional(Duration.ofSeconds(5))
                .isPresent());
        return new ItemTags(stamps.get(), true);
    }

}
