package dev.cachegateway.gateway.cache.stale;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.demo.GatewayApplication;
import dev.cachegateway.gateway.cache.policy.StaleFlags;
import dev.cachegateway.gateway.cache.policy.StaleWindows;
import dev.cachegateway.demo.support.CacheStatusMember;
import dev.cachegateway.demo.support.ConcurrentGets;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.MemcachedTextClient;
import dev.cachegateway.demo.support.RecordingBackend;
import dev.cachegateway.demo.support.RecordingBackend.Reply;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Mono;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.http.ResponseEntity;

/**
 * Stale answers (RFC 5861) from a real memcached through two gateways: a stale item
 * answers at once while exactly one gateway refreshes it, and answers when the backend
 * fails inside its error window. The items are written as an earlier store would have
 * left them: their stale windows in their flags, and a TTL that has run into them.
 */
@Testcontainers
class StaleAnswersTests {

    static final int CONCURRENT = 50;

    static final String OLD = "{\"old\":true}";

    static final String NEW = "{\"new\":true}";

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    static ConfigurableApplicationContext first;

    static ConfigurableApplicationContext second;

    static ConfigurableApplicationContext withDeadBackend;

    static ConfigurableApplicationContext refreshingEarly;

    static final ConcurrentGets gets = new ConcurrentGets();

    MemcachedTextClient raw;

    @BeforeAll
    static void startGateways() {
        first = gateway(backend.uri());
        second = gateway(backend.uri());
        // Port 1: nothing listens there, so every connection is refused.
        withDeadBackend = gateway("http://127.0.0.1:1");
        // Items fresh for 60 s are refreshed once they have less than 58 s left.
        refreshingEarly = gateway(backend.uri(), "--memcached.cache.early-refresh=58s");
    }

    @AfterAll
    static void stopGateways() {
        first.close();
        second.close();
        withDeadBackend.close();
        refreshingEarly.close();
        backend.close();
    }

    @BeforeEach
    void emptyCacheAndBackend() throws Exception {
        raw = MemcachedContainer.textClient(memcached);
        raw.flushAll();
        backend.reset();
    }

    @AfterEach
    void closeRawClient() throws Exception {
        raw.close();
    }

    @Test
    void answersAStaleItemAtOnceWhileItsRefreshIsHeldOpen() throws Exception {
        String path = "/api/v1/comments/1";
        storeStale(path, new StaleWindows(30, 0), 25);
        CountDownLatch release = new CountDownLatch(1);
        backend.replyByCall(path, call -> {
            hold(release);
            return Reply.json(NEW, "public, max-age=60");
        });

        ResponseEntity<byte[]> stale = get(first, path).block(Duration.ofSeconds(10));
        assertThat(stale.getStatusCode().value()).isEqualTo(200);
        assertThat(stale.getBody()).asString().isEqualTo(OLD);
        assertThat(stale.getHeaders().getFirst("X-Cache")).isEqualTo("UPDATING");
        assertThat(stale.getHeaders().getFirst("Date")).isNotNull();
        CacheStatusMember member = CacheStatusMember.last(stale.getHeaders().get("Cache-Status"));
        assertThat(member.parameters()).containsEntry("hit", true).containsEntry("detail", "stale-while-revalidate");
        assertThat((Long) member.parameters().get("ttl")).isNegative();

        await().atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);
        // Held open: the next request is answered stale too, and starts no second
        // refresh.
        assertThat(get(first, path).block(Duration.ofSeconds(10)).getHeaders().getFirst("X-Cache"))
            .isEqualTo("UPDATING");
        release.countDown();

        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            ResponseEntity<byte[]> fresh = get(second, path).block(Duration.ofSeconds(10));
            assertThat(fresh.getHeaders().getFirst("X-Cache")).isEqualTo("HIT");
            assertThat(fresh.getBody()).asString().isEqualTo(NEW);
        });
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void refreshesOnceForFiftyConcurrentStaleRequestsOverTwoGateways() throws Exception {
        String path = "/api/v1/comments/2";
        storeStale(path, new StaleWindows(30, 0), 25);
        backend.reply(path, Reply.json(NEW, "public, max-age=60").after(Duration.ofMillis(300)));

        List<ResponseEntity<byte[]>> answers = gets.getAll(CONCURRENT, i -> uri(i % 2 == 0 ? first : second, path));

        assertThat(answers).hasSize(CONCURRENT).allSatisfy(answer -> {
            assertThat(answer.getStatusCode().value()).isEqualTo(200);
            assertThat(answer.getHeaders().getFirst("X-Cache")).isIn("UPDATING", "HIT");
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> body(raw.get(path)).equals(NEW));
        assertThat(backend.calls(path)).isEqualTo(1);
    }

    @Test
    void refreshesAgainOnceTheLockOfARefresherThatDiedHasExpired() throws Exception {
        String path = "/api/v1/comments/3";
        storeStale(path, new StaleWindows(60, 0), 55);
        // As a gateway would leave it had it died while refreshing.
        raw.set(path + LockKey.SUFFIX, 0, 2, "locked".getBytes(StandardCharsets.US_ASCII));
        backend.reply(path, Reply.json(NEW, "public, max-age=60"));

        assertThat(get(first, path).block(Duration.ofSeconds(10)).getHeaders().getFirst("X-Cache"))
            .isEqualTo("UPDATING");
        assertThat(backend.calls(path)).isZero();

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            get(second, path).block(Duration.ofSeconds(10));
            assertThat(backend.calls(path)).isEqualTo(1);
        });
        await().atMost(Duration.ofSeconds(10)).until(() -> body(raw.get(path)).equals(NEW));
    }

    @Test
    void refreshesAgainAfterTheLockTimeoutWhenTheBackendHangs() throws Exception {
        String path = "/api/v1/comments/4";
        storeStale(path, new StaleWindows(60, 0), 55);
        CountDownLatch never = new CountDownLatch(1);
        backend.replyByCall(path, call -> {
            if (call == 1) {
                hold(never);
            }
            return Reply.json(NEW, "public, max-age=60");
        });

        get(first, path).block(Duration.ofSeconds(10));
        await().atMost(Duration.ofSeconds(10)).until(() -> backend.calls(path) == 1);

        // Stale hits go on until one, after the lock timeout, refreshes and stores. (A
        // hit
        // whose lookup fails under load asks the backend too, without a refresh: the hits
        // go on past it.)
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            get(first, path).block(Duration.ofSeconds(10));
            assertThat(body(raw.get(path))).isEqualTo(NEW);
        });
        assertThat(backend.calls(path)).isGreaterThanOrEqualTo(2);
        never.countDown();
    }

    @Test
    void refreshesAHotItemOnceBeforeItGoesStaleOnARouteThatAsksForIt() {
        String path = "/api/v1/comments/12";
        backend.replyByCall(path, call -> Reply.json("{\"call\":" + call + "}", "public, max-age=60"));
        get(refreshingEarly, path).block(Duration.ofSeconds(10));

        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            ResponseEntity<byte[]> answer = get(refreshingEarly, path).block(Duration.ofSeconds(10));
            assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("HIT");
            assertThat(answer.getBody()).asString().isEqualTo("{\"call\":2}");
        });
        // The new item has more than 58 s left: nobody is chosen to refresh it again.
        for (int i = 0; i < 10; i++) {
            get(refreshingEarly, path).block(Duration.ofSeconds(10));
        }
        assertThat(backend.calls(path)).isEqualTo(2);
    }

    @Test
    void answersTheStaleItemWhenTheBackendAnswersAServerErrorInsideTheErrorWindow() throws Exception {
        String path = "/api/v1/comments/5";
        storeStale(path, new StaleWindows(0, 60), 30);
        backend.reply(path, Reply.json("{\"error\":true}", "no-store").withStatus(503));

        ResponseEntity<byte[]> answer = get(first, path).block(Duration.ofSeconds(10));

        assertThat(answer.getStatusCode().value()).isEqualTo(200);
        assertThat(answer.getBody()).asString().isEqualTo(OLD);
        assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("STALE");
        // Not the backend's 503's Date: the stale item's answer is dated on its own.
        assertThat(answer.getHeaders().getFirst("Date")).isNotNull();
        CacheStatusMember member = CacheStatusMember.last(answer.getHeaders().get("Cache-Status"));
        assertThat(member.parameters()).containsEntry("fwd", "stale")
            .containsEntry("fwd-status", 503L)
            .containsEntry("detail", "stale-if-error");
        assertThat(backend.calls(path)).isEqualTo(1);
        assertThat(body(raw.get(path))).isEqualTo(OLD);
    }

    @Test
    void answersEveryConcurrentRequestWithTheStaleItemWhenTheBackendFailsThemAll() throws Exception {
        String path = "/api/v1/comments/11";
        storeStale(path, new StaleWindows(0, 60), 30);
        backend.reply(path, Reply.json("{\"error\":true}", "no-store").withStatus(503).after(Duration.ofMillis(300)));

        List<ResponseEntity<byte[]>> answers = gets.getAll(CONCURRENT, i -> uri(i % 2 == 0 ? first : second, path));

        assertThat(answers).hasSize(CONCURRENT).allSatisfy(answer -> {
            assertThat(answer.getStatusCode().value()).isEqualTo(200);
            assertThat(answer.getBody()).asString().isEqualTo(OLD);
            assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("STALE");
        });
    }

    @Test
    void answersTheStaleItemWhenTheBackendCannotBeReachedInsideTheErrorWindow() throws Exception {
        String path = "/api/v1/comments/6";
        storeStale(path, new StaleWindows(0, 60), 30);

        ResponseEntity<byte[]> answer = get(withDeadBackend, path).block(Duration.ofSeconds(10));

        assertThat(answer.getStatusCode().value()).isEqualTo(200);
        assertThat(answer.getBody()).asString().isEqualTo(OLD);
        assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("STALE");
        // The lock goes with the failed fetch, well before its 2 s run out, so the next
        // request does not wait.
        await().atMost(Duration.ofMillis(1000)).until(() -> raw.get(path + LockKey.SUFFIX) == null);
    }

    @Test
    void answersAndStoresTheBackendsAnswerInsideTheErrorWindowWhenItSucceeds() throws Exception {
        String path = "/api/v1/comments/7";
        storeStale(path, new StaleWindows(0, 60), 30);
        backend.reply(path, Reply.json(NEW, "public, max-age=60"));

        ResponseEntity<byte[]> answer = get(first, path).block(Duration.ofSeconds(10));

        assertThat(answer.getBody()).asString().isEqualTo(NEW);
        assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("EXPIRED");
        await().atMost(Duration.ofSeconds(10)).until(() -> body(raw.get(path)).equals(NEW));
    }

    @Test
    void answersTheBackendsErrorOnceTheItemHasOutlivedItsWindows() throws Exception {
        String path = "/api/v1/comments/8";
        storeStale(path, new StaleWindows(0, 2), 2);
        raw.awaitAbsent(path);
        backend.reply(path, Reply.json("{\"error\":true}", "no-store").withStatus(503));

        ResponseEntity<byte[]> answer = get(first, path).block(Duration.ofSeconds(10));

        assertThat(answer.getStatusCode().value()).isEqualTo(503);
        assertThat(answer.getHeaders().getFirst("X-Cache")).isEqualTo("MISS");
    }

    @Test
    void neverServesStaleAnAnswerThatMustBeRevalidated() throws Exception {
        String path = "/api/v1/comments/9";
        backend.reply(path, Reply.json(OLD, "public, max-age=60, must-revalidate, stale-while-revalidate=30"));

        get(first, path).block(Duration.ofSeconds(10));

        MemcachedTextClient.Item item = raw.await(path);
        assertThat(item.flags() & StaleFlags.MASK).isZero();
        assertThat(raw.ttl(path)).isLessThanOrEqualTo(60L);
    }

    @Test
    void keepsAnAnswerForItsFreshnessAndItsStaleWindows() throws Exception {
        String path = "/api/v1/comments/10";
        backend.reply(path, Reply.json(OLD, "public, max-age=60, stale-while-revalidate=30, stale-if-error=600"));

        get(first, path).block(Duration.ofSeconds(10));

        MemcachedTextClient.Item item = raw.await(path);
        assertThat(StaleFlags.decode(item.flags())).isEqualTo(StaleFlags.rounded(new StaleWindows(30, 600)));
        assertThat(raw.ttl(path)).isGreaterThan(600L).isLessThanOrEqualTo(60L + 600L);
    }

    private void storeStale(String path, StaleWindows windows, int ttlSeconds) throws Exception {
        raw.set(path, StaleFlags.encode(windows), ttlSeconds, OLD.getBytes(StandardCharsets.UTF_8));
    }

    private static String body(MemcachedTextClient.Item item) {
        return item == null ? "" : new String(item.value(), StandardCharsets.UTF_8);
    }

    private static void hold(CountDownLatch latch) {
        try {
            latch.await(30, TimeUnit.SECONDS);
        }
        catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
        }
    }

    private static Mono<ResponseEntity<byte[]>> get(ConfigurableApplicationContext gateway, String path) {
        return gets.get(uri(gateway, path));
    }

    private static String uri(ConfigurableApplicationContext gateway, String path) {
        return "http://localhost:" + ((WebServerApplicationContext) gateway).getWebServer().getPort() + path;
    }

    private static ConfigurableApplicationContext gateway(String backendUri, String... settings) {
        List<String> args = new ArrayList<>(List.of("--server.port=0", "--management.server.port=0",
                "--comments-service.uri=" + backendUri, "--memcached.servers=" + MemcachedContainer.address(memcached),
                "--memcached.operation-timeout=500ms", "--memcached.cache.lock-timeout=2s"));
        args.addAll(List.of(settings));
        return new SpringApplicationBuilder(GatewayApplication.class).run(args.toArray(String[]::new));
    }

}
