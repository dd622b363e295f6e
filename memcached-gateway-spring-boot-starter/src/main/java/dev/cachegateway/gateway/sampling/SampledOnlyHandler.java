package dev.cachegateway.gateway.sampling;

import dev.cachegateway.gateway.cache.early.ServerSpans;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.tracing.handler.TracingObservationHandler;

/**
 * One of Boot's tracing handlers, asked only about observations of requests that are
 * traced: for the others no span is made, opened in scope, given baggage or put in the
 * logs' MDC. The meter handlers are not wrapped, so that {@code http.server.requests} and
 * every other timer stay as they are. A request whose server span was started before its
 * observation ({@link DirectServerSpans}) keeps that span: the handler goes on with it in
 * place of one of its own.
 */
final class SampledOnlyHandler implements ObservationHandler<Observation.Context> {

    private final ObservationHandler<Observation.Context> delegate;

    private final HeadSampler sampler;

    @SuppressWarnings("unchecked")
    SampledOnlyHandler(ObservationHandler<?> delegate, HeadSampler sampler) {
        this.delegate = (ObservationHandler<Observation.Context>) delegate;
        this.sampler = sampler;
    }

    @Override
    public boolean supportsContext(Observation.Context context) {
        // Asked as the observation is made, and, in Boot's first-matching group, again on
        // each of its events: the decision is kept on the context after the first time.
        return sampler.decisionFor(context).traced() && delegate.supportsContext(context);
    }

    @Override
    public void onStart(Observation.Context context) {
        // A request whose server span was started before its observation: the handler
        // goes on with that span, which it names, tags and ends as its own.
        if (context.get(ServerSpans.ServerSpan.class) instanceof DirectServerSpan started
                && delegate instanceof TracingObservationHandler<Observation.Context> tracing) {
            started.takenOnBy(tracing.getTracingContext(context));
            return;
        }
        if (sampler.decisionFor(context).drawn()) {
            ForcedRootSampler.whileDrawn(() -> delegate.onStart(context));
        }
        else {
            delegate.onStart(context);
        }
    }

    @Override
    public void onError(Observation.Context context) {
        delegate.onError(context);
    }

    @Override
    public void onEvent(Observation.Event event, Observation.Context context) {
        delegate.onEvent(event, context);
    }

    @Override
    public void onScopeOpened(Observation.Context context) {
        delegate.onScopeOpened(context);
    }

    @Override
    public void onScopeClosed(Observation.Context context) {
        delegate.onScopeClosed(context);
    }

    @Override
    public void onScopeReset(Observation.Context context) {
        delegate.onScopeReset(context);
    }

    @Override
    public void onStop(Observation.Context context) {
        delegate.onStop(context);
    }

}
