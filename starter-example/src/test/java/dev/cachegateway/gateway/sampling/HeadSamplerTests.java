package dev.cachegateway.gateway.sampling;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.cachegateway.gateway.cache.early.TraceDecisions;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import io.micrometer.observation.transport.ReceiverContext;
import io.micrometer.observation.transport.SenderContext;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import io.opentelemetry.sdk.trace.samplers.SamplingDecision;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;

/**
 * The decision made before the server's span, and the sampler that keeps a root drawn
 * here sampled; the gateway's {@code UnsampledTracingTests} and {@code TracingTests} show
 * them at work.
 */
class HeadSamplerTests {

    private static final String TRACE = "4bf92f3577b34da6a3ce929d0e0e4736";

    @Test
    void drawsRequestsWithoutATraceAtTheConfiguredRatio() {
        HeadSampler sampler = new HeadSampler(0.25, List.of());
        int drawn = 0;
        for (int i = 0; i < 4000; i++) {
            HeadSampling decision = sampler.decisionFor(request(Map.of()));
            drawn += decision.drawn() ? 1 : 0;
        }
        // 1,000 expected, 27 the standard deviation; the square of the ratio would be
        // 250.
        assertThat(drawn).isBetween(800, 1200);
    }

    @Test
    void aRequestDecidedBeforeItsObservationKeepsThatDecision() {
        HeadSampler sampler = new HeadSampler(0.5, List.of());
        Set<Boolean> seen = new HashSet<>();
        // Drawn twice, half the requests would change their minds.
        for (int i = 0; i < 64; i++) {
            MockServerHttpRequest request = MockServerHttpRequest.get("/").build();
            TraceDecisions.Decision decided = sampler.decide(request);
            ReceiverContext<ServerHttpRequest> server = new ReceiverContext<>(
                    (carrier, key) -> carrier.getHeaders().getFirst(key));
            server.setCarrier(request);

            sampler.keeping(request, decided, () -> {
                // As Spring's handler makes the server observation: as it is called.
                assertThat(sampler.decisionFor(server).traced()).isEqualTo(decided.traced());
                return Mono.empty();
            }).block(Duration.ofSeconds(5));
            seen.add(decided.traced());
        }
        assertThat(seen).containsExactlyInAnyOrder(true, false);
    }

    @Test
    void followsTheSampledFlagOfTheTraceparentARequestCameWith() {
        HeadSampler never = new HeadSampler(0.0, List.of());
        assertThat(never.decisionFor(request(Map.of("traceparent", "00-" + TRACE + "-00f067aa0ba902b7-01"))))
            .isSameAs(HeadSampling.TRACED);

        String unsampled = "00-" + TRACE + "-00f067aa0ba902b7-00";
        HeadSampling decision = new HeadSampler(1.0, List.of()).decisionFor(request(Map.of("traceparent", unsampled)));
        assertThat(decision.traced()).isFalse();
        assertThat(decision.traceparent()).isEqualTo(unsampled);
    }

    @Test
    void leavesWhatItCannotReadToTheTracer() {
        HeadSampler never = new HeadSampler(0.0, List.of("b3"));
        assertThat(never.decisionFor(request(Map.of("traceparent", "00-" + TRACE + "-0000000000000000-00"))))
            .isSameAs(HeadSampling.TRACED);
        assertThat(
                never.decisionFor(request(Map.of("traceparent", "00-" + TRACE.toUpperCase() + "-00f067aa0ba902b7-00"))))
            .isSameAs(HeadSampling.TRACED);
        assertThat(never.decisionFor(request(Map.of("b3", TRACE + "-00f067aa0ba902b7-1"))))
            .isSameAs(HeadSampling.TRACED);
    }

    @Test
    void anUnsampledRequestsCallsSendOneTraceparentWithFlag00() {
        HeadSampler never = new HeadSampler(0.0, List.of());
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(context -> true);
        ReceiverContext<Map<String, String>> server = request(Map.of());
        Observation request = Observation.createNotStarted("request", () -> server, registry).start();
        assertThat(never.decisionFor(server).traced()).isFalse();

        SenderContext<Map<String, String>> call = new SenderContext<>((carrier, key, value) -> {
        });
        Observation.createNotStarted("call", () -> call, registry).parentObservation(request);
        HeadSampling inherited = never.decisionFor(call);
        assertThat(inherited.traced()).isFalse();
        assertThat(inherited.traceparent()).matches("00-[0-9a-f]{32}-[0-9a-f]{16}-00")
            .isEqualTo(never.decisionFor(server).traceparent());
        assertThat(new HeadSampler(1.0, List.of()).decisionFor(new Observation.Context()))
            .isSameAs(HeadSampling.TRACED);
    }

    @Test
    void aCallThatLearnsItsRequestLateStillSendsItsTraceparent() {
        HeadSampler never = new HeadSampler(0.0, List.of());
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(context -> true);
        ReceiverContext<Map<String, String>> server = request(Map.of());
        Observation request = Observation.createNotStarted("request", () -> server, registry).start();
        String traceparent = never.decisionFor(server).traceparent();
        Map<String, String> headers = new HashMap<>();
        SenderContext<Map<String, String>> call = new SenderContext<>(Map::put);
        call.setCarrier(headers);
        UnsampledTraceparent handler = new UnsampledTraceparent(never);

        // As a WebClient does: its handlers chosen first, its parent given as it starts.
        assertThat(handler.supportsContext(call)).isTrue();
        Observation.createNotStarted("call", () -> call, registry).parentObservation(request);
        handler.onStart(call);

        assertThat(headers).containsEntry("traceparent", traceparent);
    }

    @Test
    void aRootDrawnHereIsSampledAndEverythingElseIsTheDelegates() {
        Sampler sampler = new ForcedRootSampler(Sampler.parentBased(Sampler.alwaysOff()));
        SamplingDecision[] decisions = new SamplingDecision[2];
        Context unsampledParent = Context.root()
            .with(Span.wrap(SpanContext.createFromRemoteParent(TRACE, "00f067aa0ba902b7", TraceFlags.getDefault(),
                    TraceState.getDefault())));
        ForcedRootSampler.whileDrawn(() -> {
            decisions[0] = decide(sampler, Context.root());
            decisions[1] = decide(sampler, unsampledParent);
        });

        assertThat(decisions).containsExactly(SamplingDecision.RECORD_AND_SAMPLE, SamplingDecision.DROP);
        assertThat(decide(sampler, Context.root())).isEqualTo(SamplingDecision.DROP);
    }

    private static SamplingDecision decide(Sampler sampler, Context parent) {
        return sampler.shouldSample(parent, TRACE, "http get", SpanKind.SERVER, Attributes.empty(), List.of())
            .getDecision();
    }

    private static ReceiverContext<Map<String, String>> request(Map<String, String> headers) {
        ReceiverContext<Map<String, String>> context = new ReceiverContext<>((carrier, key) -> carrier.get(key));
        context.setCarrier(headers);
        return context;
    }

}
