package dev.cachegateway.gateway.cache.early;

import dev.cachegateway.gateway.overload.AdmissionLimitFilter;
import dev.cachegateway.gateway.server.Http10KeepAliveFilter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.filter.WeightCalculatorWebFilter;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Fresh hits below Spring's WebHandler, where
 * {@code memcached.cache.hits-skip-web-filters} is true: off by default, since the
 * application's own WebFilters never see such a hit.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(prefix = "memcached.cache", name = "hits-skip-web-filters", havingValue = "true")
public class FastHitConfiguration {

    @Bean
    @ConditionalOnMissingBean
    FastHitInstaller fastHitInstaller(ApplicationContext context, EarlyRoutes routes, HandedOverLookups handedOver,
            ObjectProvider<AdmissionLimitFilter> admission, ObjectProvider<WeightCalculatorWebFilter> weights,
            ObjectProvider<Http10KeepAliveFilter> keepAlive, ObjectProvider<TraceDecisions> traces) {
        return new FastHitInstaller(context, routes, handedOver, new FastHitDoors(admission.getIfAvailable(),
                weights.getIfAvailable(), keepAlive.getIfAvailable() != null), traces.getIfAvailable());
    }

}
