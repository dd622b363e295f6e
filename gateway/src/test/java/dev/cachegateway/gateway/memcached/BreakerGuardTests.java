package dev.cachegateway.gateway.memcached;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreaker.State;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * What a server's breaker, with the gateway's settings, counts of the operations it lets
 * through: their outcomes, in the spell that let them through. The operations are held
 * open here, as a stall holds memcached's answers, so that each outcome arrives when the
 * test says.
 */
class BreakerGuardTests {

    private final CircuitBreaker breaker = TestMemcached.breakers().circuitBreaker("memcached");

    @Test
    void failuresLetThroughBeforeTheBreakerOpenedDoNotReopenItOnceHalfOpen() {
        Held[] late = { letThrough(), letThrough(), letThrough() };
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        for (Held operation : late) {
            operation.outcome.tryEmitError(new TimeoutException("answered after the breaker opened"));
        }
        assertThat(breaker.getState()).isEqualTo(State.HALF_OPEN);

        letThrough().outcome.tryEmitValue("hit");
        letThrough().outcome.tryEmitEmpty();
        letThrough().outcome.tryEmitValue("hit");
        assertThat(breaker.getState()).isEqualTo(State.CLOSED);
    }

    @Test
    void failedTrialsReopenIt() {
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        for (int trial = 0; trial < 3; trial++) {
            letThrough().outcome.tryEmitError(new TimeoutException("no answer"));
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void failuresOfItsClosedSpellOpenIt() {
        for (int operation = 0; operation < 10; operation++) {
            letThrough().outcome.tryEmitError(new TimeoutException("no answer"));
        }
        assertThat(breaker.getState()).isEqualTo(State.OPEN);
    }

    @Test
    void refusesWhileOpenWithoutStartingTheOperation() {
        breaker.transitionToOpenState();
        AtomicInteger started = new AtomicInteger();
        Held refused = subscribe(Sinks.one(), Mono.fromCallable(() -> "started " + started.incrementAndGet()));
        assertThat(refused.error.get()).isInstanceOf(CallNotPermittedException.class);
        assertThat(started).hasValue(0);
    }

    @Test
    void aCancelledTrialGivesItsPlaceBack() {
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        Held first = letThrough();
        letThrough();
        letThrough();
        assertThat(letThrough().error.get()).isInstanceOf(CallNotPermittedException.class);
        first.subscription.dispose();
        assertThat(letThrough().error.get()).isNull();
    }

    @Test
    void aCancelledOperationOfAnEarlierSpellGivesNoPlace() {
        Held early = letThrough();
        breaker.transitionToOpenState();
        breaker.transitionToHalfOpenState();
        letThrough();
        letThrough();
        letThrough();
        early.subscription.dispose();
        assertThat(letThrough().error.get()).isInstanceOf(CallNotPermittedException.class);
    }

    private Held letThrough() {
        Sinks.One<String> outcome = Sinks.one();
        return subscribe(outcome, outcome.asMono());
    }

    private Held subscribe(Sinks.One<String> outcome, Mono<String> operation) {
        AtomicReference<Throwable> error = new AtomicReference<>();
        Disposable subscription = BreakerGuard.guard(breaker, operation).subscribe(value -> {
        }, error::set);
        return new Held(outcome, subscription, error);
    }

    private record Held(Sinks.One<String> outcome, Disposable subscription, AtomicReference<Throwable> error) {
    }

}
