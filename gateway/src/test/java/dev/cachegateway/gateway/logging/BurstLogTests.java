package dev.cachegateway.gateway.logging;

import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyString;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

import java.io.IOException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.slf4j.Logger;

class BurstLogTests {

    private final Logger logger = mock(Logger.class);

    private final AtomicLong now = new AtomicLong();

    private final BurstLog log = new BurstLog(logger, Duration.ofSeconds(10), now::get);

    @Test
    void reportsTheFirstFailureOfABurstAndSilencesTheRest() {
        for (int i = 0; i < 100; i++) {
            log.warn("lookup failed", new IOException("down"));
        }

        verify(logger, times(1)).warn(anyString(), any(), any(), any());
    }

    @Test
    void reportsAgainAfterTheQuietPeriodWithHowManyItLeftOut() {
        for (int i = 0; i < 100; i++) {
            log.warn("lookup failed", new IOException("down"));
        }
        now.addAndGet(Duration.ofSeconds(10).toNanos());

        log.warn("lookup failed", new IOException("still down"));

        verify(logger).warn(anyString(), eq("lookup failed"), eq("java.io.IOException: still down"), eq(99L));
    }

}
