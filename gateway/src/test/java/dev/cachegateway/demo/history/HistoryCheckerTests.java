package dev.cachegateway.demo.history;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.cachegateway.demo.history.FaultSchedule.Kind;
import dev.cachegateway.demo.history.HistoryCases.Case;
import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.demo.history.TwoGateways.MemcachedTrouble;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history checker: two gateways on memcached, in front of an origin whose answers
 * carry versions, driven by a seeded mix of reads, writes and hard and soft purges (by
 * path, key and tag) from concurrent clients, with seeded faults injected as it runs;
 * then every rule of {@link HistoryChecks} over what the clients saw and the origin
 * answered, and nothing left over once the run has been quiet. A violation names the seed
 * and the slice of the history that shows it. The fixed cases of {@link HistoryCases} run
 * every time, and one random seed with faults, printed.
 */
@RunsAlone
class HistoryCheckerTests {

    static TwoGateways setup;

    @BeforeAll
    static void startWarmGateways() throws Exception {
        // scripts/history-soak.sh runs the gateways in processes of their own when asked,
        // so that one can be paused.
        setup = new TwoGateways(1, Boolean.getBoolean("history.processes"));
    }

    @AfterAll
    static void stopGateways() throws Exception {
        setup.close();
    }

    // The open bugs' cases only when asked (scripts/history-soak.sh does): a disabled
    // test would read as skipped.
    static Stream<Case> cases() {
        return Stream.concat(HistoryCases.withRandom(HistoryCases.FIXED, "HistoryCheckerTests"),
                Boolean.getBoolean("history.openBugs") ? HistoryCases.OPEN_GATEWAY_BUGS.stream() : Stream.empty());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepsEveryRuleOverASeededHistory(Case run) throws Exception {
        check(setup, run);
    }

    // A history that broke a rule is not checked for what it left behind, and a write of
    // it that owed memcached an invalidation paid it in the next history once the
    // breaker closed, dropping that history's first store of the key.
    @Test
    void startsAHistoryOnlyOnceTheOneBeforeOwesNothing() throws Exception {
        setup.quiet();
        setup.memcached.kill(0);
        HttpClient http = HttpClient.newHttpClient();
        try {
            // Lookups that fail open the breaker, which keeps the owed invalidation back
            // until the probes of quiet close it.
            AtomicInteger reads = new AtomicInteger();
            await().atMost(Duration.ofSeconds(20)).until(() -> {
                http.send(HttpRequest
                    .newBuilder(URI.create(setup.uri(0) + "/api/v1/comments/b-" + reads.incrementAndGet()))
                    .build(), HttpResponse.BodyHandlers.discarding());
                return setup.memcachedHealth(0).contains("OPEN");
            });
            HttpResponse<Void> write = http
                .send(HttpRequest.newBuilder(URI.create(setup.uri(0) + "/api/v1/comments/b-0"))
                    .PUT(HttpRequest.BodyPublishers.ofString("{}"))
                    .build(), HttpResponse.BodyHandlers.discarding());
            assertThat(write.statusCode()).isEqualTo(200);
            await().atMost(Duration.ofSeconds(10)).until(setup::owedInvalidations, owed -> owed > 0);
        }
        finally {
            setup.memcached.heal(0);
        }
        setup.quiet();
        assertThat(setup.owedInvalidations()).isZero();
    }

    /**
     * Runs the case's history against {@code setup}, with its faults, and asserts every
     * rule over it.
     */
    static void check(TwoGateways setup, Case run) throws Exception {
        setup.quiet();
        MemcachedTrouble before = setup.memcachedTrouble();
        History history = new History();
        try (FaultSchedule faults = new FaultSchedule(run.seed(), run.faults(), history, setup,
                TwoGateways.LOCK_TIMEOUT.plusMillis(500))
            .start()) {
            setup.driver().run(history, run.seed(), TwoGateways.CLIENTS, run.requestsEach());
        }

        HistoryChecks checks = new HistoryChecks(history, setup.origin.calls());
        Map<Kind, Long> injected = history.faults()
            .stream()
            .collect(Collectors.groupingBy(History.Fault::kind, TreeMap::new, Collectors.counting()));
        String on = setup.memcached.size() + " memcached"
                + (setup.processes.isEmpty() ? "" : ", gateways in processes");
        Path whole = HistoryDump.write(run, history, setup.origin.calls());
        System.out.printf("HistoryCheckerTests: %s on %s, %d requests (%d cancelled, %d errors a fault excused, %d"
                + " reads before an owed invalidation), %d origin calls (%d revalidations), repeated calls of the"
                + " documented cases %s," + " faults %s, as the gateways counted: %s; the whole history: %s%n", run, on,
                history.requests().size(), checks.cancelled(), checks.answeredWithAFault(), checks.owedInvalidations(),
                setup.origin.calls().size(),
                setup.origin.calls().stream().filter(call -> call.method().equals(VersionedOrigin.REVALIDATED)).count(),
                checks.excusedOriginCalls(), injected, setup.memcachedTrouble().since(before), whole);
        List<String> unanswered = checks.unanswered(HistoryDriver.REQUEST_BOUND);
        if (!unanswered.isEmpty()) {
            // Where a lost request stopped: a lead still in flight, or a lock still held.
            System.out.printf("HistoryCheckerTests: %s: right after the history, %s%n", run, setup.leftovers());
        }
        SoftAssertions.assertSoftly(rules -> {
            rules.assertThat(unanswered).as("%s: liveness", run).isEmpty();
            rules.assertThat(checks.olderThanAFinishedWrite()).as("%s: a write wins", run).isEmpty();
            rules.assertThat(checks.crossTalk()).as("%s: every answer the origin's", run).isEmpty();
            rules.assertThat(checks.wrongAge()).as("%s: every age true", run).isEmpty();
            rules.assertThat(checks.repeatedOriginCalls()).as("%s: one origin call per version", run).isEmpty();
        });
        setup.assertNothingLeftOver(run);
    }

}
