package dev.cachegateway.demo.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.demo.history.RequestMix.Step;
import org.junit.jupiter.api.Test;

/** How the driver tells a client that gave up from a request that failed. */
class HistoryDriverTests {

    private static final Step GIVES_UP_AFTER_52_MS = new Step(0, "GET", "/api/v1/comments/b-1", "/api/v1/comments/b-1",
            null, false, 52);

    private static final Step WAITS = new Step(0, "GET", "/api/v1/comments/b-1", "/api/v1/comments/b-1", null, false,
            0);

    @Test
    void aBodyCutOffOnceTheClientsDeadlinePassedIsTheClientGivingUp() {
        IOException cutOff = new IOException("fixed content-length: 73, bytes received: 0");

        assertThat(HistoryDriver.gaveUp(GIVES_UP_AFTER_52_MS, cutOff, TimeUnit.MILLISECONDS.toNanos(60))).isTrue();
    }

    @Test
    void aTimerThatFiredIsTheClientGivingUp() {
        assertThat(HistoryDriver.gaveUp(GIVES_UP_AFTER_52_MS, new HttpTimeoutException("request timed out"),
                TimeUnit.MILLISECONDS.toNanos(52)))
            .isTrue();
    }

    @Test
    void aFailureBeforeTheDeadlineIsAFailure() {
        IOException cutOff = new IOException("fixed content-length: 73, bytes received: 0");

        assertThat(HistoryDriver.gaveUp(GIVES_UP_AFTER_52_MS, cutOff, TimeUnit.MILLISECONDS.toNanos(30))).isFalse();
    }

    @Test
    void aClientWithoutADeadlineNeverGivesUp() {
        assertThat(HistoryDriver.gaveUp(WAITS, new IOException("fixed content-length: 73, bytes received: 0"),
                TimeUnit.SECONDS.toNanos(20)))
            .isFalse();
    }

}
