package dev.cachegateway.gateway.overload;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The gateway's two concurrency limits, and the 503 they share. */
@Configuration(proxyBeanMethods = false)
class OverloadConfiguration {

    @Bean
    Rejections overloadRejections(OverloadProperties properties, MeterRegistry meters) {
        return new Rejections(properties.getRetryAfter(), meters);
    }

    @Bean
    AdmissionLimitFilter admissionLimitFilter(OverloadProperties properties, Rejections overloadRejections,
            ApplicationContext context) {
        return new AdmissionLimitFilter(properties.getMaxConcurrentRequests(), overloadRejections, context);
    }

    @Bean
    BackendCallLimitFilter backendCallLimitFilter(OverloadProperties properties, Rejections overloadRejections) {
        return new BackendCallLimitFilter(properties.getMaxConcurrentBackendCalls(), overloadRejections);
    }
}
