package dev.cachegateway.demo.history;

import java.util.stream.Stream;

import dev.cachegateway.demo.history.HistoryCases.Case;
import dev.cachegateway.demo.support.RunsAlone;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The history checker on a pool of three memcached servers, whose keys the gateways place
 * by Ketama, so that a killed server costs only its own keys and the lock of a key lives
 * where the key does.
 */
@RunsAlone
class HistoryCheckerPoolTests {

    static TwoGateways setup;

    @BeforeAll
    static void startWarmGateways() throws Exception {
        setup = new TwoGateways(3, false);
    }

    @AfterAll
    static void stopGateways() throws Exception {
        setup.close();
    }

    // -Dhistory.poolRepeats=N runs the case with a killed server N times over, as a soak
    // of the pool: a lost request once showed there in about one history of thirty.
    static Stream<Case> cases() {
        int repeats = Integer.getInteger("history.poolRepeats", 0);
        return repeats > 0 ? Stream.generate(() -> HistoryCases.POOL.get(1)).limit(repeats)
                : HistoryCases.POOL.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void keepsEveryRuleOverASeededHistoryOnAPool(Case run) throws Exception {
        HistoryCheckerTests.check(setup, run);
    }

}
