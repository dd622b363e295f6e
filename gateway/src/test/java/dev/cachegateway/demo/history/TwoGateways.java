package dev.cachegateway.demo.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.cachegateway.gateway.cache.key.LockKey;
import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.demo.support.GatewayReplicas;
import dev.cachegateway.demo.support.PurgeToken;

import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a history runs against: two gateways, warm, on a pool of memcached servers, in
 * front of a versioned origin; and what it takes to start each history from a quiet state
 * and to see that one left nothing behind. The gateways run in this JVM, or each in a JVM
 * of its own ({@link GatewayProcess}), which a fault can stop as a whole.
 */
final class TwoGateways implements AutoCloseable {

    static final Duration LOCK_TIMEOUT = Duration.ofSeconds(2);

    static final int CLIENTS = 8;

    final MemcachedNodes memcached;

    final VersionedOrigin origin = new VersionedOrigin();

    private final List<ConfigurableApplicationContext> gateways = new ArrayList<>();

    final List<GatewayProcess> processes = new ArrayList<>();

    private final List<String> uris = new ArrayList<>();

    private final List<String> managements = new ArrayList<>();

    private final HttpClient http = HttpClient.newHttpClient();

    TwoGateways(int memcachedServers, boolean inProcesses) throws IOException {
        memcached = new MemcachedNodes(memcachedServers);
        String[] settings = { "--memcached.cache.lock-timeout=" + LOCK_TIMEOUT.toMillis() + "ms",
                "--memcached.max-reconnect-delay=1s", PurgeToken.SETTING };
        for (int i = 0; i < 2; i++) {
            if (inProcesses) {
                GatewayProcess gateway = new GatewayProcess(memcached.servers(), origin.uri(),
                        Files.createTempFile("history-gateway-" + i + "-", ".log"), settings);
                processes.add(gateway);
                uris.add(gateway.uri());
                managements.add(gateway.managementUri());
            }
            else {
                ConfigurableApplicationContext gateway = GatewayReplicas.start(memcached.servers(), origin.uri(),
                        settings);
                gateways.add(gateway);
                uris.add(GatewayReplicas.uri(gateway, ""));
                managements.add(GatewayReplicas.managementUri(gateway));
            }
        }
        // Warm, so that a cold JVM's slow first requests are not what the rules judge.
        driver().run(0, CLIENTS, 20);
    }

    /** Where gateway {@code i} takes requests. */
    String uri(int i) {
        return uris.get(i);
    }

    HistoryDriver driver() {
        return new HistoryDriver(uris, managements);
    }

    /**
     * Waits until every gateway's breakers are closed, which a fault of the history
     * before may have left open or half open (turning away all but a few lookups),
     * closing them with lookups of keys of their own, and until that history left nothing
     * behind ({@link #assertNothingLeftOver}), even one that broke a rule and was not
     * checked for it; then empties memcached and has the origin forget its calls.
     */
    void quiet() throws Exception {
        AtomicInteger probes = new AtomicInteger();
        await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).untilAsserted(() -> {
            for (int i = 0; i < uris.size(); i++) {
                // A half-open breaker closes only on lookups of its own server's keys,
                // and
                // one key lives on one server of a pool: each probe asks for another key.
                URI probe = URI.create(uris.get(i) + "/api/v1/comments/probe-" + probes.incrementAndGet());
                http.send(HttpRequest.newBuilder(probe).timeout(HistoryDriver.REQUEST_BOUND).build(),
                        HttpResponse.BodyHandlers.discarding());
                assertThat(memcachedHealth(i)).as("memcached as a gateway sees it")
                    .contains("\"UP\"")
                    .doesNotContain("OPEN", "\"connected\":false");
            }
        });
        // An invalidation owed from before, paid once the breaker closed, would mark its
        // key written in the next history and drop that history's first store of it.
        assertNothingLeftOver("the history before");
        memcached.flushAll();
        origin.reset();
    }

    /**
     * Quiet for the lock timeout and a few seconds: no lock in memcached, no lead in
     * flight and no invalidation owed in either gateway (read from their metrics
     * endpoints, which gateways in processes have too).
     */
    void assertNothingLeftOver(Object run) {
        await().atMost(LOCK_TIMEOUT.plusSeconds(5)).untilAsserted(() -> {
            assertThat(memcached.keys()).as("%s: locks left", run).noneMatch(key -> key.endsWith(LockKey.SUFFIX));
            assertThat(gateways).as("%s: leads left in flight", run)
                .allSatisfy(gateway -> assertThat(gateway.getBean(InFlightRequests.class).size()).isZero());
            // Once memcached answers again, every write it missed has been invalidated;
            // else a delete owed from this history lands in the next one, and reads there
            // as an item gone for no reason.
            assertThat(owedInvalidations()).as("%s: invalidations still owed", run).isZero();
        });
    }

    /** What gateway {@code i}'s health endpoint says of memcached. */
    String memcachedHealth(int i) throws IOException, InterruptedException {
        return http
            .send(HttpRequest.newBuilder(URI.create(managements.get(i) + "/actuator/health/memcached")).build(),
                    HttpResponse.BodyHandlers.ofString())
            .body();
    }

    /** How many keys the gateways owe memcached an invalidation of, by their gauges. */
    double owedInvalidations() throws IOException, InterruptedException {
        return GatewayMeters.sum(managements, "memcached.cache.invalidations.owed");
    }

    /**
     * What a history left behind, as a request that never ended leaves it: the locks in
     * memcached, and the leads in flight in each gateway in this JVM.
     */
    String leftovers() throws IOException {
        List<String> locks = memcached.keys().stream().filter(key -> key.endsWith(LockKey.SUFFIX)).toList();
        List<Integer> leads = gateways.stream().map(gateway -> gateway.getBean(InFlightRequests.class).size()).toList();
        return "locks " + locks + ", leads in flight " + leads;
    }

    /**
     * What went wrong between the gateways and memcached so far, by the gateways' own
     * count: a store that failed or timed out leaves its key empty, so a request after it
     * asks the origin again.
     */
    MemcachedTrouble memcachedTrouble() throws IOException, InterruptedException {
        return new MemcachedTrouble(GatewayMeters.sum(managements, "memcached.cache.stores", "result:failed"),
                GatewayMeters.sum(managements, "memcached.cache.stores", "result:dropped"),
                GatewayMeters.sum(managements, "memcached.cache.stores", "result:dropped", "reason:locked"),
                GatewayMeters.sum(managements, "memcached.cache.stores", "result:dropped", "reason:tag-purged"),
                GatewayMeters.sum(managements, "memcached.cache.lookups", "result:error"));
    }

    /**
     * Counts of stores that failed, stores dropped (and of those, the ones dropped since
     * another fetch held the key's lock, and since a tag of theirs was purged during the
     * fetch) and lookups that failed.
     */
    record MemcachedTrouble(double failedStores, double droppedStores, double lockedStores, double taggedStores,
            double failedLookups) {

        MemcachedTrouble since(MemcachedTrouble before) {
            return new MemcachedTrouble(failedStores - before.failedStores, droppedStores - before.droppedStores,
                    lockedStores - before.lockedStores, taggedStores - before.taggedStores,
                    failedLookups - before.failedLookups);
        }

        @Override
        public String toString() {
            return String.format(
                    "%.0f stores failed, %.0f dropped (%.0f locked, %.0f for a tag purge), %.0f lookups" + " failed",
                    failedStores, droppedStores, lockedStores, taggedStores, failedLookups);
        }
    }

    @Override
    public void close() throws InterruptedException {
        gateways.forEach(ConfigurableApplicationContext::close);
        for (GatewayProcess process : processes) {
            process.close();
        }
        origin.close();
        memcached.close();
    }

}
