package dev.cachegateway.gateway.memcached.operation;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.TestMemcached;
import dev.cachegateway.demo.support.MemcachedContainer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.netty.channel.DefaultEventLoopGroup;
import io.netty.channel.EventLoop;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;
import reactor.core.publisher.Mono;

/**
 * Where what follows a memcached operation runs: on the event loop that started it, else
 * on the client's own completion threads; never on spymemcached's I/O thread.
 */
@Testcontainers
class CompletionThreadsTests {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    private static final CachedItem ITEM = new CachedItem("{}".getBytes(StandardCharsets.UTF_8), 0);

    private ReactiveMemcached client;

    private DefaultEventLoopGroup loops;

    @BeforeEach
    void connect() {
        client = TestMemcached.connect(memcached.getHost(), memcached.getMappedPort(MemcachedContainer.PORT),
                Duration.ofSeconds(2), TestMemcached.breakers(), new SimpleMeterRegistry());
        loops = new DefaultEventLoopGroup(1);
    }

    @AfterEach
    void disconnect() throws Exception {
        loops.shutdownGracefully(0, 1, TimeUnit.SECONDS).await(5, TimeUnit.SECONDS);
        client.close();
    }

    @Test
    void continuesOnTheEventLoopThatStartedTheOperation() throws Exception {
        EventLoop loop = loops.next();
        Thread loopThread = loop.submit(Thread::currentThread).get(5, TimeUnit.SECONDS);
        CompletableFuture<Thread> setOn = new CompletableFuture<>();
        CompletableFuture<Thread> getOn = new CompletableFuture<>();

        loop.execute(() -> continuation(client.set("/loop", 60, ITEM)).subscribe(setOn::complete,
                setOn::completeExceptionally));
        setOn.get(5, TimeUnit.SECONDS);
        loop.execute(() -> continuation(client.get("/loop")).subscribe(getOn::complete, getOn::completeExceptionally));

        assertThat(setOn.get(5, TimeUnit.SECONDS)).isSameAs(loopThread);
        assertThat(getOn.get(5, TimeUnit.SECONDS)).isSameAs(loopThread);
    }

    @Test
    void continuesOnItsOwnThreadsWhenNoEventLoopStartedTheOperation() {
        Thread setOn = continuation(client.set("/plain", 60, ITEM)).block(Duration.ofSeconds(5));

        assertThat(setOn.getName()).startsWith("memcached-completion-");
    }

    @Test
    void runsAContinuationOnTheThreadThatHasItOnceItsOwnThreadsAreShut() {
        // As at shutdown, when operations still end after the threads: each has a request
        // to finish or fail.
        CompletionThreads shut = new CompletionThreads(Executors.newSingleThreadExecutor());
        shut.close();
        AtomicReference<Thread> ranOn = new AtomicReference<>();

        shut.ofCaller().execute(() -> ranOn.set(Thread.currentThread()));

        assertThat(ranOn).hasValue(Thread.currentThread());
    }

    private static Mono<Thread> continuation(Mono<?> operation) {
        return operation.map(result -> Thread.currentThread());
    }

}
