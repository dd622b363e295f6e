package dev.cachegateway.gateway.backend;

import dev.cachegateway.gateway.server.RequestProperties;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cloud.gateway.filter.headers.TrustedProxies;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** The backend client's hardening and the filters that turn its failures into the answers nginx would give. */
@Configuration(proxyBeanMethods = false)
public class BackendConfiguration {

    @Bean
    @ConditionalOnMissingBean
    BackendHttpClientCustomizer backendHttpClientCustomizer() {
        return new BackendHttpClientCustomizer();
    }

    @Bean
    @ConditionalOnMissingBean
    ReusedConnectionRetryFilter reusedConnectionRetryFilter() {
        return new ReusedConnectionRetryFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    UnreadableResponseFilter unreadableResponseFilter() {
        return new UnreadableResponseFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    UnreachableBackendFilter unreachableBackendFilter() {
        return new UnreachableBackendFilter();
    }

    @Bean
    @ConditionalOnMissingBean
    UnkeyedHeadersFilter unkeyedHeadersFilter(RequestProperties properties,
            @Value("${" + TrustedProxies.PROPERTY + ":}") String trustedProxies) {
        return new UnkeyedHeadersFilter(properties, trustedProxies);
    }
}
