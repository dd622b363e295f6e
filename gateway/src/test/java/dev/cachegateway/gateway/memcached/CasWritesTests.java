package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.demo.support.MemcachedContainer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
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

    @RegisterExtension
    final BothProtocols clients = new BothProtocols(memcached);

    @Test
    void addsAnItemWithItsFlagsAndTtlAndGivesTheCasUniqueThatGetsReads() throws Exception {
        long cas = clients.withMeta().casWrites().add("/a", 100, item("one", 7)).block(WAIT);

        assertThat(cas).isEqualTo(clients.withMeta().gets("/a").block(WAIT).cas()).isNotEqualTo(CasWrites.CAS_UNKNOWN);
        assertThat(clients.raw().get("/a").flags()).isEqualTo(7);
        assertThat(clients.raw().ttl("/a")).isBetween(1L, 100L);
    }

    @Test
    void addsNothingWhereAnItemIs() throws Exception {
        clients.raw().set("/a", 0, 60, bytes("theirs"));

        StepVerifier.create(clients.withMeta().casWrites().add("/a", 60, item("mine", 0))).verifyComplete();

        assertThat(clients.raw().get("/a").value()).isEqualTo(bytes("theirs"));
    }

    @Test
    void replacesOnlyTheItemItWroteLast() throws Exception {
        CasWrites writes = clients.withMeta().casWrites();
        long first = writes.add("/a", 60, item("one", 0)).block(WAIT);
        long second = writes.setIfCas("/a", first, 60, item("two", 0)).block(WAIT);

        StepVerifier.create(writes.setIfCas("/a", first, 60, item("three", 0))).verifyComplete();

        assertThat(second).isNotEqualTo(first).isEqualTo(clients.withMeta().gets("/a").block(WAIT).cas());
        assertThat(clients.raw().get("/a").value()).isEqualTo(bytes("two"));
    }

    @Test
    void replacesNothingOnceTheItemIsGone() throws Exception {
        long cas = clients.withMeta().casWrites().add("/a", 60, item("one", 0)).block(WAIT);
        clients.raw().delete("/a");

        StepVerifier.create(clients.withMeta().casWrites().setIfCas("/a", cas, 60, item("two", 0))).verifyComplete();

        assertThat(clients.raw().get("/a")).isNull();
    }

    @Test
    void deletesOnlyTheItemWithItsCasUnique() throws Exception {
        CasWrites writes = clients.withMeta().casWrites();
        long cas = writes.add("/a", 60, item("one", 0)).block(WAIT);
        clients.raw().set("/a", 0, 60, bytes("one"));

        StepVerifier.create(writes.deleteIfCas("/a", cas)).expectNext(false).verifyComplete();
        assertThat(clients.raw().get("/a")).isNotNull();

        long now = clients.withMeta().gets("/a").block(WAIT).cas();
        StepVerifier.create(writes.deleteIfCas("/a", now)).expectNext(true).verifyComplete();
        assertThat(clients.raw().get("/a")).isNull();
        StepVerifier.create(writes.deleteIfCas("/a", now)).expectNext(false).verifyComplete();
    }

    @Test
    void writesWithoutKnowingTheCasUniqueWhereMetaCommandsAreOff() throws Exception {
        CasWrites writes = clients.withoutMeta().casWrites();

        StepVerifier.create(writes.add("/a", 60, item("one", 0))).expectNext(CasWrites.CAS_UNKNOWN).verifyComplete();
        StepVerifier.create(writes.add("/a", 60, item("two", 0))).verifyComplete();
        long cas = clients.withoutMeta().gets("/a").block(WAIT).cas();
        StepVerifier.create(writes.setIfCas("/a", cas, 60, item("three", 0)))
            .expectNext(CasWrites.CAS_UNKNOWN)
            .verifyComplete();
        StepVerifier.create(writes.setIfCas("/a", cas, 60, item("four", 0))).verifyComplete();
        StepVerifier.create(writes.deleteIfCas("/a", cas)).expectError(UnsupportedOperationException.class).verify();

        assertThat(clients.raw().get("/a").value()).isEqualTo(bytes("three"));
    }

    private static CachedItem item(String text, int flags) {
        return new CachedItem(bytes(text), flags);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.US_ASCII);
    }

}
