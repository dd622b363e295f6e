package dev.cachegateway.gateway.cache.early;

import io.micrometer.observation.contextpropagation.ObservationThreadLocalAccessor;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.core.publisher.SignalType;

import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * How {@link FastHitHandler} takes a request where the application traces with head
 * sampling: decided first ({@link TraceDecisions}); one that is not traced is answered as
 * any other and timed alone. A traced one has its server span started before its lookup,
 * so that the lookup is in its trace. Where the tracer can be asked for that span
 * directly ({@link ServerSpans}), a fresh hit ends it and is timed as an untraced one is,
 * and anything else gets its server observation as it is handed on, which takes the span
 * and the time of arrival on. Otherwise the traced request's server observation is
 * started at once ({@link TracedRequests}).
 */
final class TracedHits {

    /** The handler's way of answering a request, handing on what it does not answer. */
    interface Answering {

        Mono<Void> answer(ServerHttpRequest request, ServerHttpResponse response, HttpHandler onward,
                @Nullable ServerRequestTimers timed);

    }

    private final TraceDecisions decisions;

    private final TracedRequests observations;

    private final @Nullable ServerSpans spans;

    private final ServerRequestTimers timers;

    TracedHits(TraceDecisions decisions, TracedRequests observations, @Nullable ServerSpans spans,
            ServerRequestTimers timers) {
        this.decisions = decisions;
        this.observations = observations;
        this.spans = spans;
        this.timers = timers;
    }

    Mono<Void> handle(ServerHttpRequest request, ServerHttpResponse response, HttpHandler delegate,
            Answering answering) {
        // Decided before the lookup, so that a traced request's lookup is in its trace;
        // kept while a server observation may be made for the request.
        TraceDecisions.Decision decided = decisions.decide(request);
        if (!decided.traced()) {
            return answering.answer(request, response, (onwardRequest, onwardResponse) -> decisions
                .keeping(onwardRequest, decided, () -> delegate.handle(onwardRequest, onwardResponse)), timers);
        }
        ServerSpans direct = spans;
        if (direct == null) {
            return decisions.keeping(request, decided, () -> observations.observe(request, response,
                    onward -> answering.answer(request, response, onward, null)));
        }
        Arrival arrival = new Arrival(direct.start(request, decided), timers.sample());
        HttpHandler onward = (onwardRequest, onwardResponse) -> decisions.keeping(onwardRequest, decided,
                () -> observations.observe(onwardRequest, onwardResponse, arrival,
                        unobserved -> unobserved.handle(onwardRequest, onwardResponse)));
        return answering.answer(request, response, onward, timers)
            .doFinally(signal -> arrival.span()
                .end(() -> timers.observed(request, response, signal == SignalType.CANCEL || arrival.get())))
            .contextWrite(context -> context.put(ObservationThreadLocalAccessor.KEY, arrival.span().parent())
                .put(Arrival.class, arrival));
    }

}
