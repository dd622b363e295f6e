package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import dev.cachegateway.demo.support.JvmPause;
import dev.cachegateway.demo.support.MemcachedContainer;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * A deadline that runs out while memcached sits on the request is memcached's failure;
 * one that runs out while the gateway itself is stopped is not. The gateway is stopped
 * for real: the test's own JVM gets SIGSTOP and SIGCONT, which stops every thread at
 * once, as a long GC pause does.
 */
@Testcontainers
@RunsAlone
class GatewayDelayTests {

    private static final Duration TIMEOUT = Duration.ofMillis(500);

    private static final Duration MAX_GATEWAY_DELAY = Duration.ofSeconds(1);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private final SimpleMeterRegistry meters = new SimpleMeterRegistry();

    private ReactiveMemcached client;

    @BeforeEach
    void connect() {
        client = TestMemcached.connect(MemcachedContainer.address(memcached), TIMEOUT,
                settings -> settings.setMaxGatewayDelay(MAX_GATEWAY_DELAY), meters);
    }

    @AfterEach
    void disconnect() throws Exception {
        client.close();
    }

    @Test
    void countsATimeoutAsMemcachedsFailureWhenMemcachedSitsOnTheRequest() throws Exception {
        List<Throwable> failures = whileMemcachedIsPaused(() -> failuresOf(lookups(12)));

        assertThat(failures).hasSize(12).allMatch(TimeoutException.class::isInstance);
        assertThat(client.servers().get(0).circuitBreaker()).isEqualTo(CircuitBreaker.State.OPEN);
        assertThat(delayed()).isZero();
    }

    @Test
    void neverCountsTheGatewaysOwnPauseAgainstMemcached() throws Exception {
        List<Throwable> failures = whileMemcachedIsPaused(() -> {
            List<CompletableFuture<?>> lookups = lookups(12);
            // Past the longest wait: they are given up on as soon as the gateway runs
            // again.
            JvmPause.stopFor(MAX_GATEWAY_DELAY.multipliedBy(2));
            return failuresOf(lookups);
        });

        // memcached did not answer either, but it had well under its timeout while the
        // gateway was running.
        assertThat(failures).hasSize(12).allMatch(GatewayDelayException.class::isInstance);
        assertThat(client.servers().get(0).circuitBreaker()).isEqualTo(CircuitBreaker.State.CLOSED);
        assertThat(delayed()).isEqualTo(12);
        assertThat(meters.get("memcached.operations")
            .tag("outcome", "failure")
            .timers()
            .stream()
            .mapToLong(timer -> timer.count())
            .sum()).isZero();
    }

    @Test
    void answersLookupsThatOutlastAPauseOfTheGatewayAlone() throws Exception {
        List<CompletableFuture<?>> lookups = lookups(12);
        // Longer than the timeout, within the longest wait.
        JvmPause.stopFor(Duration.ofMillis(700));

        assertThat(failuresOf(lookups)).isEmpty();
        assertThat(client.servers().get(0).circuitBreaker()).isEqualTo(CircuitBreaker.State.CLOSED);
    }

    private List<CompletableFuture<?>> lookups(int count) {
        List<CompletableFuture<?>> lookups = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            lookups.add(client.get("/delay/" + i).toFuture());
        }
        return lookups;
    }

    private static List<Throwable> failuresOf(List<CompletableFuture<?>> lookups) {
        List<Throwable> failures = new ArrayList<>();
        for (CompletableFuture<?> lookup : lookups) {
            await("the lookup ends").atMost(Duration.ofSeconds(10)).until(lookup::isDone);
            lookup.handle((item, failure) -> failure).thenAccept(failure -> {
                if (failure != null) {
                    failures.add(failure);
                }
            });
        }
        return failures;
    }

    private double delayed() {
        return meters.get("memcached.operations.delayed").counters().stream().mapToDouble(c -> c.count()).sum();
    }

    private interface Step<T> {

        T run() throws Exception;

    }

    private static <T> T whileMemcachedIsPaused(Step<T> step) throws Exception {
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();
        try {
            return step.run();
        }
        finally {
            memcached.getDockerClient().unpauseContainerCmd(memcached.getContainerId()).exec();
        }
    }

}
