package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.MockClock;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleConfig;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;
import org.springframework.web.server.adapter.HttpWebHandlerAdapter;

/**
 * {@link TracedRequests}' own logic, on Spring's mock request and response: the server
 * observation it starts ends once, however the handling ends, and the request handed on
 * runs with that observation, not Spring's.
 */
class TracedRequestsTests {

    private final List<String> events = new CopyOnWriteArrayList<>();

    private final ObservationRegistry registry = ObservationRegistry.create();

    private final MockServerHttpRequest request = MockServerHttpRequest.get("/comments/1").build();

    private final MockServerHttpResponse response = new MockServerHttpResponse();

    TracedRequestsTests() {
        registry.observationConfig().observationHandler(new Recorder());
    }

    @Test
    void endsTheObservationOnceTheAnswerIsCommitted() {
        Mono<Void> observed = traced(exchange -> Mono.empty()).observe(request, response, onward -> Mono.defer(() -> {
            response.setStatusCode(HttpStatus.OK);
            return response.setComplete();
        }));

        StepVerifier.create(observed).expectComplete().verify(Duration.ofSeconds(5));
        assertThat(events).containsExactly("start", "stop 200");
    }

    @Test
    void endsTheObservationWithTheErrorOfAHandlingThatThrowsAsItIsPutTogether() {
        Mono<Void> observed = traced(exchange -> Mono.empty()).observe(request, response, onward -> {
            throw new IllegalStateException("refused");
        });

        StepVerifier.create(observed).expectErrorMessage("refused").verify(Duration.ofSeconds(5));
        response.setComplete().block(Duration.ofSeconds(5));
        // As Spring's adapter ends its own: the error on the context, for the handlers
        // to read as it stops.
        assertThat(events).containsExactly("start", "stop refused");
    }

    @Test
    void handsTheRequestOnWithItsOwnObservationInPlaceOfSprings() {
        List<Object> seen = new CopyOnWriteArrayList<>();
        TracedRequests traced = traced(exchange -> Mono.deferContextual(context -> {
            seen.add(context.get(ObservationThreadLocalAccessor.KEY));
            seen.add(exchange
                .getRequiredAttribute(ServerRequestObservationContext.CURRENT_OBSERVATION_CONTEXT_ATTRIBUTE));
            exchange.getResponse().setStatusCode(HttpStatus.OK);
            return Mono.empty();
        }));

        StepVerifier.create(traced.observe(request, response, onward -> onward.handle(request, response)))
            .expectComplete()
            .verify(Duration.ofSeconds(5));

        assertThat(seen).hasSize(2);
        Observation observation = (Observation) seen.get(0);
        assertThat(observation.isNoop()).isFalse();
        assertThat(seen.get(1)).isSameAs(observation.getContext());
        assertThat(events).containsExactly("start", "stop 200");
    }

    @Test
    void timesARequestThatArrivedBeforeItsObservationFromItsArrival() {
        MockClock clock = new MockClock();
        SimpleMeterRegistry meters = new SimpleMeterRegistry(SimpleConfig.DEFAULT, clock);
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
        List<ServerSpans.ServerSpan> carried = new CopyOnWriteArrayList<>();
        ServerSpans.ServerSpan span = new UnendedSpan();
        Arrival arrival = new Arrival(span, Timer.start(meters));
        // The lookup, made before the request was handed on.
        clock.add(Duration.ofSeconds(5));

        Mono<Void> observed = traced(exchange -> Mono.empty()).observe(request, response, arrival,
                onward -> Mono.deferContextual(context -> {
                    TracedRequest traced = context.get(TracedRequest.class);
                    carried.add(traced.observation().getContext().getRequired(ServerSpans.ServerSpan.class));
                    clock.add(Duration.ofSeconds(1));
                    response.setStatusCode(HttpStatus.OK);
                    return response.setComplete();
                }));

        StepVerifier.create(observed).expectComplete().verify(Duration.ofSeconds(5));
        assertThat(carried).containsExactly(span);
        assertThat(meters.get("http.server.requests").timer().totalTime(TimeUnit.SECONDS)).isEqualTo(6.0);
    }

    private TracedRequests traced(org.springframework.web.server.WebHandler handler) {
        HttpWebHandlerAdapter adapter = new HttpWebHandlerAdapter(handler);
        adapter.setObservationRegistry(registry);
        return new TracedRequests(adapter);
    }

    private final class Recorder implements ObservationHandler<ServerRequestObservationContext> {

        @Override
        public void onStart(ServerRequestObservationContext context) {
            events.add("start");
        }

        @Override
        public void onError(ServerRequestObservationContext context) {
            events.add("error");
        }

        @Override
        public void onStop(ServerRequestObservationContext context) {
            if (context.getError() != null) {
                events.add("stop " + context.getError().getMessage());
            }
            else {
                events.add("stop " + context.getResponse().getStatusCode().value());
            }
        }

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof ServerRequestObservationContext;
        }

    }

}
