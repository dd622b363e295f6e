package dev.cachegateway.gateway.sampling;

import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.transport.SenderContext;

/**
 * The {@code traceparent} of a call made for a request that is not sampled, in place of
 * the one the tracer's span would have sent: the request's own, or random ids, with the
 * sampled flag 00 either way, so that the backend does not sample what the gateway did
 * not. Costs nothing on a hit, which makes no call.
 */
final class UnsampledTraceparent implements ObservationHandler<Observation.Context> {

    private final HeadSampler sampler;

    UnsampledTraceparent(HeadSampler sampler) {
        this.sampler = sampler;
    }

    // Every call, and the decision asked for as it starts: a WebClient's call learns its
    // parent, and with it its request's decision, only after its handlers were chosen.
    @Override
    public boolean supportsContext(Observation.Context context) {
        return context instanceof SenderContext<?>;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void onStart(Observation.Context context) {
        HeadSampling decision = sampler.decisionFor(context);
        SenderContext<Object> sender = (SenderContext<Object>) context;
        Object carrier = sender.getCarrier();
        if (!decision.traced() && carrier != null) {
            sender.getSetter().set(carrier, Traceparents.HEADER, decision.traceparent());
        }
    }

}
