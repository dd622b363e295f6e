package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

/**
 * {@link CasWrites} against a real memcached: with meta commands ({@code ms ... c},
 * {@code md ... C}) and with them switched off (spymemcached's {@code add} and
 * {@code cas}).
 */
@Testcontainers
class CasWritesTests {

    private static final Duration WAIT = Duration.ofSeconds(5);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private BothProtocols clients;

    private ReactiveMemcached withMeta;

    private ReactiveMemcached withoutMeta;

    private MemcachedTextClient raw;

    @BeforeEach
    void connect() throws Exception {
        clients = BothProtocols.connect(MemcachedContainer.address(memcached));
        withMeta = clients.withMeta();
        withoutMeta = clients.withoutMeta();
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
    }

    @AfterEach
    void disconnect() throws Exception {
        clients.close();
        raw.close();
    }

    @Test
    void addsAnItemWithItsFlagsAndTtlAndGivesTheCasUniqueThatGetsReads() throws Exception {
        long cas = withMeta.casWrites().add("/a", 100, item("one", 7)).block(WAIT);

        assertThat(cas).isEqualTo(withMeta.gets("/a").block(WAIT).cas()).isNotEqualTo(CasWrites.CAS_UNKNOWN);
        assertThat(raw.get("/a").flags()).isEqualTo(7);
        assertThat(raw.ttl("/a")).isBetween(1L, 100L);
    }

    @Test
    void addsNothingWhereAnItemIs() throws Exception {
        raw.set("/a", 0, 60, bytes("theirs"));

        StepVerifier.create(withMeta.casWrites().add("/a", 60, item("mine", 0))).verifyComplete();

        assertThat(raw.get("/a").value()).isEqualTo(bytes("theirs"));
    }

    @Test
    void replacesOnlyTheItemItWroteLast() throws Exception {
        CasWrites writes = withMeta.casWrites();
        long first = writes.add("/a", 60, item("one", 0)).block(WAIT);
        long second = writes.setIfCas("/a", first, 60, item("two", 0)).block(WAIT);

        StepVerifier.create(writes.setIfCas("/a", first, 60, item("three", 0))).verifyComplete();

        assertThat(second).isNotEqualTo(first).isEqualTo(withMeta.gets("/a").block(WAIT).cas());
        assertThat(raw.get("/a").value()).isEqualTo(bytes("two"));
    }

    @Test
    void replacesNothingOnceTheItemIsGone() throws Exception {
        long cas = withMeta.casWrites().add("/a", 60, item("one", 0)).block(WAIT);
        raw.delete("/a");

        StepVerifier.create(withMeta.casWrites().setIfCas("/a", cas, 60, item("two", 0))).verifyComplete();

        assertThat(raw.get("/a")).isNull();
    }

    @Test
    void deletesOnlyTheItemWithItsCasUnique() throws Exception {
        CasWrites writes = withMeta.casWrites();
        long cas = writes.add("/a", 60, item("one", 0)).block(WAIT);
        raw.set("/a", 0, 60, bytes("one"));

        StepVerifier.create(writes.deleteIfCas("/a", cas)).expectNext(false).verifyComplete();
        assertThat(raw.get("/a")).isNotNull();

        long now = withMeta.gets("/a").block(WAIT).cas();
        StepVerifier.create(writes.deleteIfCas("/a", now)).expectNext(true).verifyComplete();
        assertThat(raw.get("/a")).isNull();
        StepVerifier.create(writes.deleteIfCas("/a", now)).expectNext(false).verifyComplete();
    }

    @Test
    void writesWithoutKnowingTheCasUniqueWhereMetaCommandsAreOff() throws Exception {
        CasWrites writes = withoutMeta.casWrites();

        StepVerifier.create(writes.add("/a", 60, item("one", 0))).expectNext(CasWrites.CAS_UNKNOWN).verifyComplete();
        StepVerifier.create(writes.add("/a", 60, item("two", 0))).verifyComplete();
        long cas = withoutMeta.gets("/a").block(WAIT).cas();
        StepVerifier.create(writes.setIfCas("/a", cas, 60, item("three", 0)))
            .expectNext(CasWrites.CAS_UNKNOWN)
            .verifyComplete();
        StepVerifier.create(writes.setIfCas("/a", cas, 60, item("four", 0))).verifyComplete();
        StepVerifier.create(writes.deleteIfCas("/a", cas)).expectError(UnsupportedOperationException.class).verify();

        assertThat(raw.get("/a").value()).isEqualTo(bytes("three"));
    }

    private static CachedItem item(String text, int flags) {
        return new CachedItem(bytes(text), flags);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

}
