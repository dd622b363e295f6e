package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import reactor.core.publisher.Mono;
import reactor.test.StepVerifier;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.observation.ServerRequestObservationContext;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.http.server.reactive.MockServerHttpResponse;

/**
 * {@link HitEnding}'s own logic, on Spring's mock request and response: each way a hit's
 * answer can end, ended as Spring's adapter ends a request, timed where Spring's would
 * be.
 */
@ExtendWith(OutputCaptureExtension.class)
class HitEndingTests {

    private static final Duration VERIFY = Duration.ofSeconds(5);

    private final MockServerHttpRequest request = MockServerHttpRequest.get("/comments/1?page=2").build();

    private final MockServerHttpResponse response = new MockServerHttpResponse();

    private final AtomicInteger timed = new AtomicInteger();

    @Test
    void timesAnAnsweredHitOnceAndCompletesTheResponse() {
        Mono<Void> answer = Mono.fromRunnable(() -> response.setStatusCode(HttpStatus.OK));

        StepVerifier.create(HitEnding.of(request, response, answer, timed::incrementAndGet))
            .expectComplete()
            .verify(VERIFY);

        assertThat(timed).hasValue(1);
        assertThat(response.isCommitted()).isTrue();
    }

    @Test
    void answersAFailureBeforeAnythingIsSentWithA500ThatIsLoggedAndTimed(CapturedOutput output) {
        Mono<Void> answer = Mono.error(new IllegalStateException("a header Netty refused"));

        StepVerifier.create(HitEnding.of(request, response, answer, timed::incrementAndGet))
            .expectComplete()
            .verify(VERIFY);

        assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        assertThat(response.isCommitted()).isTrue();
        assertThat(timed).hasValue(1);
        assertThat(output).contains("500 Server Error for HTTP GET \"/comments/1?page=2\"")
            .contains("IllegalStateException: a header Netty refused");
    }

    @Test
    void logsAFailureOnceSentAndPassesItOnToTheServer(CapturedOutput output) {
        response.setStatusCode(HttpStatus.OK);
        Mono<Void> answer = response.setComplete().then(Mono.error(new IllegalStateException("lost mid-body")));

        StepVerifier.create(HitEnding.of(request, response, answer, timed::incrementAndGet))
            .expectErrorMessage("lost mid-body")
            .verify(VERIFY);

        assertThat(timed).hasValue(0);
        assertThat(output).contains("Error [java.lang.IllegalStateException: lost mid-body] for HTTP GET "
                + "\"/comments/1?page=2\", but the response was already committed (200 OK)");
    }

    @Test
    void takesAClientThatLeftAsNoErrorAndMarksItsObservationAborted(CapturedOutput output) {
        List<Boolean> aborted = new CopyOnWriteArrayList<>();
        ObservationRegistry registry = ObservationRegistry.create();
        registry.observationConfig().observationHandler(new AbortRecorder(aborted));
        TracedRequest traced = new TracedRequest(request, response, registry, null, null);
        response.setStatusCode(HttpStatus.OK);
        Mono<Void> answer = response.setComplete().then(Mono.error(new IOException("Broken pipe")));

        StepVerifier
            .create(HitEnding.of(request, response, answer, timed::incrementAndGet)
                .contextWrite(context -> context.put(TracedRequest.class, traced)))
            .expectComplete()
            .verify(VERIFY);
        traced.complete();

        assertThat(aborted).containsExactly(true);
        assertThat(timed).hasValue(0);
        assertThat(output).doesNotContain("Broken pipe");
    }

    @Test
    void marksAClientThatLeftOnTheSpanStartedAsItsRequestArrived() {
        Arrival arrival = new Arrival(new UnendedSpan(), Timer.start(new SimpleMeterRegistry()));
        response.setStatusCode(HttpStatus.OK);
        Mono<Void> answer = response.setComplete().then(Mono.error(new IOException("Connection reset by peer")));

        StepVerifier
            .create(HitEnding.of(request, response, answer, timed::incrementAndGet)
                .contextWrite(context -> context.put(Arrival.class, arrival)))
            .expectComplete()
            .verify(VERIFY);

        assertThat(arrival.get()).isTrue();
        assertThat(timed).hasValue(0);
    }

    private record AbortRecorder(List<Boolean> aborted) implements ObservationHandler<Observation.Context> {

        @Override
        public boolean supportsContext(Observation.Context context) {
            return context instanceof ServerRequestObservationContext;
        }

        @Override
        public void onStop(Observation.Context context) {
            aborted.add(((ServerRequestObservationContext) context).isConnectionAborted());
        }

    }

}
