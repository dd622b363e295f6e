package dev.cachegateway.gateway.memcached.pool;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.memcached.MemcachedProperties;
import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.operation.FutureBridge;
import dev.cachegateway.gateway.memcached.operation.OperationDeadlines;
import dev.cachegateway.demo.support.MemcachedContainer;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * Deadlines judged by what the connection's reader saw, against a real memcached: a
 * lookup held up behind the gateway's own busy reader is answered, not failed as
 * memcached's timeout, while a memcached that sits on what it was sent is timed out even
 * while lookups keep the reader going.
 */
@Testcontainers
@RunsAlone
class WatchedConnectionTests {

    private static final Duration TIMEOUT = Duration.ofMillis(100);

    private static final Duration MAX_GATEWAY_DELAY = Duration.ofSeconds(2);

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private PoolConnection connection;

    private PoolClient client;

    private OperationDeadlines deadlines;

    private FutureBridge bridge;

    @BeforeEach
    void connect() {
        MemcachedProperties properties = new MemcachedProperties();
        properties.setServers(List.of(MemcachedContainer.address(memcached)));
        properties.setOperationTimeout(TIMEOUT);
        properties.setMaxGatewayDelay(MAX_GATEWAY_DELAY);
        InetSocketAddress address = new InetSocketAddress(memcached.getHost(),
                memcached.getMappedPort(MemcachedContainer.PORT));
        connection = PoolConnection.open(new InetSocketAddress[] { address }, properties,
                ImmediateEventExecutor.INSTANCE,
                properties.getRing().build(List.of(ServerAddress.parse(MemcachedContainer.address(memcached)))));
        client = connection.client();
        await("connected").atMost(Duration.ofSeconds(10)).until(() -> client.getAvailableServers().size() == 1);
        deadlines = new OperationDeadlines(TIMEOUT, MAX_GATEWAY_DELAY);
        bridge = new FutureBridge(deadlines, new CompletionThreads(Executors.newFixedThreadPool(2)));
    }

    @AfterEach
    void close() throws Exception {
        deadlines.close();
        connection.close(Duration.ofSeconds(1));
    }

    @Test
    void answersLookupsHeldUpBehindTheGatewaysBusyReader() throws Exception {
        assertThat(client.set("busy", 60, "value").get(5, TimeUnit.SECONDS)).isTrue();
        // A listener runs on the reader's thread: spinning there is a backlog of answers
        // the gateway has yet to handle, four timeouts long, with memcached idle
        // throughout. memcached is paused while the listener is added, so that it is
        // still waiting when the answer comes.
        CountDownLatch busy = new CountDownLatch(1);
        pause();
        try {
            client.asyncGet("busy").addListener(done -> {
                if (Thread.currentThread() instanceof WatchedConnection) {
                    busy.countDown();
                    spin(TIMEOUT.multipliedBy(4));
                }
            });
        }
        finally {
            unpause();
        }
        assertThat(busy.await(5, TimeUnit.SECONDS)).isTrue();

        List<CompletableFuture<Object>> lookups = new ArrayList<>();
        for (int i = 0; i < 12; i++) {
            lookups.add(bridge.get(client.reader(0), () -> client.asyncGet("busy")).toFuture());
        }

        for (CompletableFuture<Object> lookup : lookups) {
            assertThat(lookup.get(10, TimeUnit.SECONDS)).isEqualTo("value");
        }
    }

    @Test
    void timesOutAMemcachedThatSitsOnWhatItWasSentWhileLookupsKeepComing() throws Exception {
        List<CompletableFuture<Object>> lookups = new ArrayList<>();
        pause();
        try {
            long end = System.nanoTime() + TIMEOUT.multipliedBy(6).toNanos();
            while (System.nanoTime() - end < 0) {
                lookups.add(bridge.get(client.reader(0), () -> client.asyncGet("paused")).toFuture());
                Thread.sleep(5);
            }
            for (CompletableFuture<Object> lookup : lookups) {
                await("the lookup ends").atMost(Duration.ofSeconds(10)).until(lookup::isDone);
            }
        }
        finally {
            unpause();
        }

        assertThat(lookups).allSatisfy(lookup -> assertThat(lookup).failsWithin(Duration.ZERO)
            .withThrowableThat()
            .havingCause()
            .isInstanceOf(TimeoutException.class));
    }

    private static void pause() {
        memcached.getDockerClient().pauseContainerCmd(memcached.getContainerId()).exec();
    }

    private static void unpause() {
        memcached.getDockerClient().unpauseContainerCmd(memcached.getContainerId()).exec();
    }

    private static void spin(Duration busy) {
        long end = System.nanoTime() + busy.toNanos();
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }

}
