package dev.cachegateway.gateway.cache.miss;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.memcached.BothProtocols;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.test.StepVerifier;

/**
 * A replica's own lock, changed by its CAS unique where memcached has meta commands (no
 * read of the lock before each change, and no change once anybody wrote it), and read
 * then written where it has none.
 */
@Testcontainers
class HeldLockTests {

    private static final String KEY = "/api/v1/comments/1";

    private static final String LOCK = KEY + LockKey.SUFFIX;

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    @RegisterExtension
    final BothProtocols clients = new BothProtocols(memcached);

    @Test
    void takesSaysStoringAndStoredWithoutReadingItsLock() throws Exception {
        HeldLock mine = new HeldLock(clients.withMeta(), LOCK, 2);
        long readsBefore = clients.raw().stat("cmd_get");
        long writesBefore = clients.raw().stat("cmd_set");
        long casBefore = clients.raw().stat("cas_hits");

        StepVerifier.create(mine.take(false)).expectNext(true).verifyComplete();
        StepVerifier.create(mine.storing()).expectNext(true).verifyComplete();
        mine.stored();

        await().atMost(Duration.ofSeconds(5)).until(() -> clients.raw().stat("cmd_set") - writesBefore == 3);
        assertThat(clients.raw().stat("cmd_get") - readsBefore).isZero();
        assertThat(clients.raw().stat("cas_hits") - casBefore).isEqualTo(2);
        assertThat(lockWord()).isEqualTo("stored");
    }

    @Test
    void changesNothingOnceAnotherWriteReplacedItsLockEvenWithTheSameWord() throws Exception {
        HeldLock mine = new HeldLock(clients.withMeta(), LOCK, 2);
        mine.take(false).block(Duration.ofSeconds(5));
        String word = lockWord();
        // Another writer: same bytes, a new CAS unique. A lock read before it is written
        // could not tell.
        clients.raw().set(LOCK, 0, 2, word.getBytes(StandardCharsets.US_ASCII));

        StepVerifier.create(mine.storing()).expectNext(false).verifyComplete();
        mine.release();

        await().during(Duration.ofMillis(200)).atMost(Duration.ofSeconds(5)).until(() -> word.equals(lockWord()));
    }

    @Test
    void givesBackItsOwnLockByItsCasUnique() throws Exception {
        HeldLock mine = new HeldLock(clients.withMeta(), LOCK, 2);
        mine.take(false).block(Duration.ofSeconds(5));
        StepVerifier.create(mine.storing()).expectNext(true).verifyComplete();

        mine.release();

        clients.raw().awaitAbsent(LOCK);
    }

    @Test
    void readsItsLockBeforeEachChangeWhereMemcachedHasNoMetaCommands() throws Exception {
        HeldLock mine = new HeldLock(clients.withoutMeta(), LOCK, 2);
        long readsBefore = clients.raw().stat("cmd_get");
        long writesBefore = clients.raw().stat("cmd_set");

        StepVerifier.create(mine.take(false)).expectNext(true).verifyComplete();
        StepVerifier.create(mine.storing()).expectNext(true).verifyComplete();
        mine.stored();

        await().atMost(Duration.ofSeconds(5)).until(() -> clients.raw().stat("cmd_set") - writesBefore == 3);
        assertThat(clients.raw().stat("cmd_get") - readsBefore).isEqualTo(2);
        assertThat(lockWord()).isEqualTo("stored");
    }

    @Test
    void takesOverALockThatSaysStoredOnlyWhileItStillDoes() throws Exception {
        clients.raw().set(LOCK, 0, 2, "stored".getBytes(StandardCharsets.US_ASCII));
        long cas = clients.withMeta().gets(LOCK).block(Duration.ofSeconds(5)).cas();
        HeldLock first = new HeldLock(clients.withMeta(), LOCK, 2);
        HeldLock second = new HeldLock(clients.withMeta(), LOCK, 2);

        StepVerifier.create(first.takeOver(cas, false)).expectNext(true).verifyComplete();
        StepVerifier.create(second.takeOver(cas, false)).expectNext(false).verifyComplete();

        assertThat(lockWord()).startsWith("locked ");
        StepVerifier.create(first.storing()).expectNext(true).verifyComplete();
    }

    private String lockWord() throws Exception {
        MemcachedTextClient.Item lock = clients.raw().get(LOCK);
        return lock == null ? null : new String(lock.value(), StandardCharsets.US_ASCII);
    }

}
