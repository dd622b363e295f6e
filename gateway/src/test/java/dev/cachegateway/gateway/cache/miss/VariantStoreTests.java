package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.cache.key.VariantKey;
import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.CachedItem;
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

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** Variants stored by two replicas at once stay reachable from the primary item. */
@Testcontainers
class VariantStoreTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private static final String PRIMARY = "http:/api/v1/comments/w-1";

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private final HttpFormat format = new HttpFormat(List.of(), List.of());

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    private VariantStore variants;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), meters);
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        variants = new VariantStore(client, new ResponseStore(client, 8, new CacheMetrics(meters)), format);
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
        raw.close();
    }

    // As the soak once ran: two replicas store the first variants of a resource just
    // written; one read no primary item, then the other created it with its epoch and
    // stored a second variant under it; then the first stores.
    @Test
    void aStoreThatFoundNoPrimaryItemKeepsTheEpochAnotherReplicaGaveItMeanwhile() throws Exception {
        stored(variants, answer("en"), Optional.empty());
        String epoch = epochOf(PRIMARY).orElseThrow();

        List<String> keys = stored(variants, answer("fr"), Optional.empty());

        assertThat(epochOf(PRIMARY)).hasValue(epoch);
        assertThat(raw.get(VariantKey.of(PRIMARY, epoch, "en").orElseThrow())).as("the English variant").isNotNull();
        assertThat(keys).containsExactlyInAnyOrder(VariantKey.of(PRIMARY, epoch, "fr").orElseThrow(), PRIMARY);
    }

    @Test
    void aStoreThatFoundThePrimaryItemStoresUnderItsEpoch() throws Exception {
        stored(variants, answer("en"), Optional.empty());
        String epoch = epochOf(PRIMARY).orElseThrow();

        stored(variants, answer("fr"), Optional.of(epoch));

        assertThat(epochOf(PRIMARY)).hasValue(epoch);
        assertThat(raw.get(VariantKey.of(PRIMARY, epoch, "fr").orElseThrow())).as("the French variant").isNotNull();
    }

    private List<String> stored(VariantStore store, CapturedResponse answer, Optional<String> found) throws Exception {
        CompletableFuture<List<String>> done = new CompletableFuture<>();
        store.store(PRIMARY, answer, found, 0, 60, System.currentTimeMillis(), (keys, taken) -> done.complete(keys));
        return done.get(5, TimeUnit.SECONDS);
    }

    private Optional<String> epochOf(String key) {
        CachedItem item = client.get(key).block(Duration.ofSeconds(5));
        return Optional.ofNullable(item)
            .flatMap(format::decode)
            .map(decoded -> decoded.stored().headers())
            .flatMap(Variants::epoch);
    }

    // The digest part of the variant header stands for what the lead computed from the
    // request: here its language.
    private static CapturedResponse answer(String language) {
        HttpHeaders headers = new HttpHeaders();
        headers.setCacheControl("public, max-age=60");
        headers.setVary(List.of("Accept-Language"));
        headers.set(Variants.HEADER, language);
        return new CapturedResponse(HttpStatus.OK, headers,
                ("{\"language\":\"" + language + "\"}").getBytes(StandardCharsets.UTF_8));
    }

}
