package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.hit.NearCache;
import dev.cachegateway.gateway.cache.miss.BackendFallback.Waiters;
import dev.cachegateway.gateway.cache.miss.WriteFences.Fence;
import dev.cachegateway.gateway.cache.outcome.CacheMetrics;
import dev.cachegateway.gateway.cache.policy.StoreDecision;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.gateway.support.MemcachedContainer;
import dev.cachegateway.gateway.support.MemcachedTextClient;
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

/** Stores that memcached takes its time over keep what the answer said when it came. */
@Testcontainers
class FencedStoreTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private ReactiveMemcached client;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofMillis(500), TestMemcached.breakers(), meters);
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
        WriteFences fences = new WriteFences(client);
        FencedStore store = new FencedStore(new HttpFormat(List.of(), List.of()),
                new ResponseStore(client, 8, new CacheMetrics(meters)), fences, client, NearCache.off(),
                new CacheMetrics(meters));
        Fence fence = fences.take("/aged").block(Duration.ofSeconds(5));
        long askedAt = System.currentTimeMillis();
        HttpHeaders headers = new HttpHeaders();
        headers.setDate(askedAt);
        headers.set(HttpHeaders.AGE, "5");
        headers.setCacheControl("public, max-age=60");
        CapturedResponse answer = new CapturedResponse(HttpStatus.OK, headers, "{}".getBytes(StandardCharsets.UTF_8));

        // As a memcached that takes two seconds over the checks before the store.
        store.store("/aged", answer, new StoreDecision(null, 60, 0), fence,
                new Waiters() {

                    @Override
                    public Mono<Void> storing() {
                        return Mono.delay(Duration.ofMillis(2200)).then();
                    }
                }, askedAt);

        // Asked in the same second as its Date: the Date tells none of its Age, so all 5 s are kept. Aged from the
        // store instead, 2 s would be taken off, and every hit would say the answer is 2 s younger than it is.
        String stored = new String(raw.await("/aged").value(), StandardCharsets.ISO_8859_1);
        assertThat(stored).contains("\r\nAge: 5\r\n");
    }
}
