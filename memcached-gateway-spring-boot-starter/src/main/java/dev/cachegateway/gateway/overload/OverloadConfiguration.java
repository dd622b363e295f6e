package dev.cachegateway.gateway.overload;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.ApplicationContext;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The gateway's two concurrency limits, and the 503 they share, where
 * {@code memcached.overload.enabled} is true.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "memcached.overload", name = "enabled", havingValue = "true")
public class OverloadConfiguration {

    @Bean
    @ConditionalOnMissingBean
    Rejections overloadRejections(OverloadProperties properties, MeterRegistry meters) {
        return new Rejections(properties.getRetryAfter(), meters);
    }

    @Bean
    @ConditionalOnMissingBean
    AdmissionLimitFilter admissionLimitFilter(OverloadProperties properties, Rejections overloadRejections,
            ApplicationContext context) {
        return new AdmissionLimitFilter(properties.getMaxConcurrentRequests(), overloadRejections, context);
    }

    @Bean
    @ConditionalOnMissingBean
    BackendCallLimitFilter backendCallLimitFilter(OverloadProperties properties, Rejections overloadRejections) {
        return new BackendCallLimitFilter(properties.getMaxConcurrentBackendCalls(), overloadRejections);
    }

}
