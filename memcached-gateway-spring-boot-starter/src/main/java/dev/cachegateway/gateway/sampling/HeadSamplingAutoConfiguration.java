package dev.cachegateway.gateway.sampling;

import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import io.micrometer.tracing.handler.TracingObservationHandler;
import io.micrometer.tracing.propagation.Propagator;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationHandlerGroup;
import org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties;
import org.springframework.context.annotation.Bean;

/**
 * Head sampling before the server's span, where the application traces with Boot's
 * OpenTelemetry bridge. Boot makes a span for every request, sampled or not, and reads
 * its headers, puts it in scope and in the logs' MDC: at 10% sampling that was most of
 * what tracing cost a cache hit. Here the request is decided first, and one that is not
 * sampled is observed by the meters alone. Made only where Boot's sampler would be (the
 * same ratio, parent-based), so that an application with a {@link Sampler} of its own
 * keeps Boot's way in full; {@code memcached.tracing.head-sampling=false} keeps it too.
 */
@AutoConfiguration(
        beforeName = "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration")
@ConditionalOnClass(
        name = { "io.micrometer.tracing.otel.bridge.OtelTracer", "io.opentelemetry.sdk.trace.SdkTracerProvider",
                "org.springframework.boot.micrometer.tracing.autoconfigure.TracingProperties" })
@ConditionalOnProperty(prefix = "memcached", name = "enabled", matchIfMissing = true)
// Off for an application whose logs must carry a trace id for every request: Boot puts
// the
// ids of an unsampled span in the MDC, and the price is that span on every request.
@ConditionalOnProperty(prefix = "memcached.tracing", name = "head-sampling", matchIfMissing = true)
@ConditionalOnMissingBean(type = "io.opentelemetry.sdk.trace.samplers.Sampler")
@EnableConfigurationProperties(TracingProperties.class)
public class HeadSamplingAutoConfiguration {

    // Boot's own: parent-based, roots at the configured ratio.
    @Bean
    Sampler headSampledOtelSampler(TracingProperties tracing) {
        return new ForcedRootSampler(
                Sampler.parentBased(Sampler.traceIdRatioBased(tracing.getSampling().getProbability())));
    }

    @Bean
    HeadSampler headSampler(TracingProperties tracing, ObjectProvider<Propagator> propagators) {
        // A request that carries a trace in another format the tracer reads (B3) is left
        // to the tracer; baggage alone is no trace, and goes on with the request's
        // headers.
        Set<String> notTraces = Stream
            .concat(Stream.of(Traceparents.HEADER, "tracestate", "baggage"),
                    tracing.getBaggage().getRemoteFields().stream())
            .map(name -> name.toLowerCase(Locale.ROOT))
            .collect(Collectors.toSet());
        Propagator propagator = propagators.getIfAvailable();
        List<String> others = propagator == null ? List.of()
                : propagator.fields()
                    .stream()
                    .filter(name -> !notTraces.contains(name.toLowerCase(Locale.ROOT)))
                    .distinct()
                    .toList();
        return new HeadSampler(tracing.getSampling().getProbability(), others);
    }

    // Started before the request's observation is, if it gets one at all.
    @Bean
    DirectServerSpans directServerSpans(ObjectProvider<Propagator> propagator) {
        return new DirectServerSpans(propagator);
    }

    // Wraps Boot's tracing group as it is made, before the observation registry takes it;
    // the sampler is looked up when the group registers its handlers.
    @Bean
    static BeanPostProcessor headSampledTracingGroup(ObjectProvider<HeadSampler> sampler) {
        return new BeanPostProcessor() {
            @Override
            public Object postProcessAfterInitialization(Object bean, String beanName) {
                if (bean instanceof ObservationHandlerGroup group
                        && TracingObservationHandler.class.isAssignableFrom(group.handlerType())) {
                    return new HeadSampledTracingGroup(group, sampler::getObject);
                }
                return bean;
            }
        };
    }

}
