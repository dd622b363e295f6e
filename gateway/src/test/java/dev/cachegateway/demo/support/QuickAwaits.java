package dev.cachegateway.demo.support;

import java.time.Duration;

import org.awaitility.Awaitility;
import org.awaitility.pollinterval.IterativePollInterval;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every test's waits look at once, then again soon: by default Awaitility first looks
 * after 100 ms and every 100 ms after that, so each wait for something already done cost
 * a tenth of a second, and the suite's thousands of them took minutes. The interval still
 * grows to 100 ms, so that a wait that sends a request each time it looks sends hardly
 * more of them. Registered for every test class (META-INF/services), as
 * junit-platform.properties turns detection on.
 */
public final class QuickAwaits implements BeforeAllCallback {

    static final Duration FIRST_INTERVAL = Duration.ofMillis(10);

    static final Duration LONGEST_INTERVAL = Duration.ofMillis(100);

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultPollDelay(Duration.ZERO);
        Awaitility.setDefaultPollInterval(new IterativePollInterval(QuickAwaits::next, FIRST_INTERVAL));
    }

    private static Duration next(Duration previous) {
        Duration doubled = previous.multipliedBy(2);
        return doubled.compareTo(LONGEST_INTERVAL) < 0 ? doubled : LONGEST_INTERVAL;
    }

}
