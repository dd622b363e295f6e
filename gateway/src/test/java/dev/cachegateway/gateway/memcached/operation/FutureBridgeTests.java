package dev.cachegateway.gateway.memcached.operation;

import static org.awaitility.Awaitility.await;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.demo.support.RunsAlone;
import dev.cachegateway.gateway.memcached.CachedItem;
import io.netty.util.concurrent.ImmediateEventExecutor;
import net.spy.memcached.internal.GetFuture;
import net.spy.memcached.internal.OperationCompletionListener;
import net.spy.memcached.internal.OperationFuture;
import net.spy.memcached.ops.CancelledOperationStatus;
import net.spy.memcached.ops.DeleteOperation;
import net.spy.memcached.ops.GetOperation;
import net.spy.memcached.ops.Operation;
import net.spy.memcached.ops.OperationStatus;
import net.spy.memcached.ops.StatusCode;
import net.spy.memcached.protocol.ProxyCallback;
import net.spy.memcached.protocol.ascii.AsciiOperationFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

/**
 * What a spymemcached future ends as: a miss completes empty, and anything else that
 * leaves no value, a cancel, a failed multi-get, a get() that throws, an answer that
 * never reaches its caller, fails; always. The futures are made by hand, and completed as
 * spymemcached completes them, so that each way of ending is certain. The timeout is
 * long: an outcome that only its deadline would bring never arrives within a verify.
 */
@RunsAlone
class FutureBridgeTests {

    private static final Duration TIMEOUT = Duration.ofMinutes(1);

    private static final Duration VERIFY = Duration.ofSeconds(10);

    private static final String KEY = "/api/v1/comments/1";

    private final OperationDeadlines deadlines = new OperationDeadlines(TIMEOUT, Duration.ofMinutes(1));

    private final CompletionThreads completions = new CompletionThreads(Executors.newSingleThreadExecutor());

    private final FutureBridge bridge = new FutureBridge(deadlines, completions);

    @AfterEach
    void close() throws Exception {
        deadlines.close();
        completions.close();
    }

    @Test
    void completesEmptyOnAMissAskedAlone() {
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.end(new OperationStatus(false, "NOT_FOUND", StatusCode.ERR_NOT_FOUND));

        StepVerifier.create(lookup).expectComplete().verify(VERIFY);
    }

    @Test
    void completesEmptyOnAMissInAMultiGetThatFoundOtherKeys() {
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.end(new OperationStatus(true, "END", StatusCode.SUCCESS));

        StepVerifier.create(lookup).expectComplete().verify(VERIFY);
    }

    @Test
    void failsAGetWhoseMultiGetWasCancelledInsteadOfReadingAMiss() {
        // spymemcached cancels the multi-get, not the gets merged into it: they only hear
        // its status.
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.end(new CancelledOperationStatus());

        StepVerifier.create(lookup).expectError(FailedOperationException.class).verify(VERIFY);
    }

    @Test
    void failsAGetWhoseMultiGetFailedInsteadOfReadingAMiss() {
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.end(new OperationStatus(false, "SERVER_ERROR out of memory", StatusCode.ERR_INTERNAL));

        StepVerifier.create(lookup).expectError(FailedOperationException.class).verify(VERIFY);
    }

    @Test
    void servesAnItemReadInFullBeforeItsMultiGetWasCancelled() {
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.found("{}");
        get.end(new CancelledOperationStatus());

        StepVerifier.create(lookup)
            .expectNextMatches(item -> new String(item.value(), StandardCharsets.UTF_8).equals("{}"))
            .expectComplete()
            .verify(VERIFY);
    }

    @Test
    void failsAGetThatSpymemcachedCancelledAtOnceRatherThanAtItsDeadline() {
        // As spymemcached does to every operation waiting on a connection it lost, or
        // sent to a server that is down.
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.operation.cancel();

        StepVerifier.create(lookup).expectError(FailedOperationException.class).verify(VERIFY);
    }

    @Test
    void failsAGetThatSpymemcachedTimedOutUnwrittenAsTheGatewaysDelay() {
        // spymemcached times out an operation that waited its whole operation timeout in
        // the gateway's queue: after a pause of the whole gateway, it can do so before
        // the deadline has judged. memcached never saw the get, so it is not to blame.
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.timeOutUnwritten();

        StepVerifier.create(lookup).expectError(GatewayDelayException.class).verify(VERIFY);
    }

    @Test
    void failsAGetWhoseMultiGetSpymemcachedTimedOutUnwrittenAsTheGatewaysDelay() {
        Get get = new Get();
        Mono<CachedItem> lookup = bridge.get(Reader.UNKNOWN, () -> get.future);

        get.timeOutUnwrittenInAMultiGet();

        StepVerifier.create(lookup).expectError(GatewayDelayException.class).verify(VERIFY);
    }

    @Test
    void failsAnOperationThatSpymemcachedTimedOutUnwrittenAsTheGatewaysDelay() {
        CountDownLatch latch = new CountDownLatch(1);
        OperationFuture<Boolean> future = new OperationFuture<>(KEY, latch, TIMEOUT.toMillis(),
                ImmediateEventExecutor.INSTANCE);
        // As spymemcached's asyncDelete sets it up.
        Operation delete = new AsciiOperationFactory().delete(KEY, new DeleteOperation.Callback() {

            @Override
            public void gotData(long cas) {
            }

            @Override
            public void receivedStatus(OperationStatus status) {
                future.set(status.isSuccess(), status);
            }

            @Override
            public void complete() {
                latch.countDown();
                future.signalComplete();
            }
        });
        future.setOperation(delete);
        Mono<Boolean> deleted = bridge.operation(Reader.UNKNOWN, () -> future);

        timeOutUnwritten(delete);

        StepVerifier.create(deleted).expectError(GatewayDelayException.class).verify(VERIFY);
    }

    @Test
    void failsAnOperationWhoseGetThrowsACancellationException() {
        CancellationException cancelled = new CancellationException("cancelled");

        StepVerifier.create(bridge.operation(Reader.UNKNOWN, () -> doneThrowing(cancelled)))
            .expectErrorMatches(failure -> failure == cancelled)
            .verify(VERIFY);
    }

    @Test
    void failsAnOperationWhoseGetThrowsARuntimeException() {
        IllegalStateException broken = new IllegalStateException("broken");

        StepVerifier.create(bridge.operation(Reader.UNKNOWN, () -> doneThrowing(broken)))
            .expectErrorMatches(failure -> failure == broken)
            .verify(VERIFY);
    }

    @Test
    void failsAnAnsweredOperationWhoseAnswerNeverReachesItsCaller() throws Exception {
        try (OperationDeadlines quick = new OperationDeadlines(Duration.ofMillis(20), Duration.ofMillis(50))) {
            FutureBridge quickBridge = new FutureBridge(quick, completions);

            StepVerifier.create(quickBridge.operation(Reader.UNKNOWN, FutureBridgeTests::doneButNeverTold))
                .expectError(GatewayDelayException.class)
                .verify(VERIFY);
        }
    }

    @Test
    void failsAnUnansweredOperationWhoseDeadlineCannotBeJudged() throws Exception {
        try (OperationDeadlines quick = new OperationDeadlines(Duration.ofMillis(20), Duration.ofMillis(50))) {
            FutureBridge quickBridge = new FutureBridge(quick, completions);
            Reader broken = (now, stalls) -> {
                throw new IllegalStateException("no reading");
            };

            StepVerifier.create(quickBridge.operation(broken, FutureBridgeTests::neverDone))
                .expectError(TimeoutException.class)
                .verify(VERIFY);
        }
    }

    /**
     * A future done at once, whose listeners run as they are added, and whose get()
     * throws {@code failure}.
     */
    private static OperationFuture<Boolean> doneThrowing(RuntimeException failure) {
        return new HandMade() {

            @Override
            public Boolean get() {
                throw failure;
            }
        };
    }

    /**
     * A future that says it is done, but whose completion is lost: its listeners never
     * run.
     */
    private static OperationFuture<Boolean> doneButNeverTold() {
        return new HandMade() {

            @Override
            public OperationFuture<Boolean> addListener(OperationCompletionListener listener) {
                return this;
            }
        };
    }

    /** A future that memcached never answers. */
    private static OperationFuture<Boolean> neverDone() {
        return new HandMade() {

            @Override
            public boolean isDone() {
                return false;
            }
        };
    }

    /**
     * What spymemcached's I/O thread does to an operation that is still in its write
     * queue past the operation timeout, here 0: ends it with a timed-out status,
     * unwritten.
     */
    private static void timeOutUnwritten(Operation operation) {
        await("the operation is older than 0 ms").atMost(VERIFY).until(() -> operation.isTimedOut(0));
    }

    private static class HandMade extends OperationFuture<Boolean> {

        HandMade() {
            super(KEY, new CountDownLatch(0), TIMEOUT.toMillis(), ImmediateEventExecutor.INSTANCE);
        }

        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public boolean isCancelled() {
            return false;
        }

        @Override
        public boolean cancel(boolean ignored) {
            return false;
        }

    }

    /**
     * A get as spymemcached's {@code asyncGet} makes it, merged into a multi-get: the
     * multi-get's callback tells it what memcached, or spymemcached, said.
     */
    private static final class Get {

        private final CountDownLatch latch = new CountDownLatch(1);

        final GetFuture<CachedItem> future = new GetFuture<>(latch, TIMEOUT.toMillis(), KEY,
                ImmediateEventExecutor.INSTANCE);

        final GetOperation operation = new AsciiOperationFactory().get(KEY, new GetOperation.Callback() {

            // As asyncGet's: null until memcached sends a value.
            private Future<CachedItem> value;

            @Override
            public void gotData(String key, int flags, byte[] data) {
                value = CompletableFuture.completedFuture(new CachedItem(data, flags));
            }

            @Override
            public void receivedStatus(OperationStatus status) {
                future.set(value, status);
            }

            @Override
            public void complete() {
                latch.countDown();
                future.signalComplete();
            }
        });

        private final ProxyCallback multiGet = new ProxyCallback();

        Get() {
            future.setOperation(operation);
            multiGet.addCallbacks(operation);
        }

        void found(String value) {
            multiGet.gotData(KEY, 0, value.getBytes(StandardCharsets.UTF_8));
        }

        void end(OperationStatus status) {
            multiGet.receivedStatus(status);
            multiGet.complete();
        }

        void timeOutUnwritten() {
            FutureBridgeTests.timeOutUnwritten(operation);
        }

        // The multi-get that spymemcached merged the get into is timed out, not the get.
        void timeOutUnwrittenInAMultiGet() {
            FutureBridgeTests.timeOutUnwritten(new AsciiOperationFactory().get(List.of(KEY), multiGet));
        }

    }

}
