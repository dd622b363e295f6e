package dev.cachegateway.gateway.sampling;

import java.util.List;
import java.util.function.Supplier;

import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry.ObservationConfig;
import io.micrometer.tracing.handler.TracingObservationHandler;

import org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup;

/**
 * Boot's group of tracing (and meter) handlers, registered as Boot registers it but with
 * each tracing handler asked only about traced requests, and with the {@code traceparent}
 * of unsampled requests' calls after it.
 */
final class HeadSampledTracingGroup implements ObservationHandlerGroup {

    private final ObservationHandlerGroup delegate;

    private final Supplier<HeadSampler> sampler;

    HeadSampledTracingGroup(ObservationHandlerGroup delegate, Supplier<HeadSampler> sampler) {
        this.delegate = delegate;
        this.sampler = sampler;
    }

    @Override
    public boolean isMember(ObservationHandler<?> handler) {
        return delegate.isMember(handler);
    }

    @Override
    public void registerMembers(ObservationConfig config, List<ObservationHandler<?>> members) {
        HeadSampler heads = sampler.get();
        List<ObservationHandler<?>> gated = members.stream()
            .<ObservationHandler<?>>map(member -> (member instanceof TracingObservationHandler<?>)
                    ? new SampledOnlyHandler(member, heads) : member)
            .toList();
        delegate.registerMembers(config, gated);
        config.observationHandler(new UnsampledTraceparent(heads));
    }

    @Override
    public int compareTo(ObservationHandlerGroup other) {
        return delegate.compareTo(other);
    }

    @Override
    public Class<?> handlerType() {
        return delegate.handlerType();
    }

}
