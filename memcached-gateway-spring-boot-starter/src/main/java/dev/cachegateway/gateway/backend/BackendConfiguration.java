package dev.cachegateway.gateway.backend;

import dev.cachegateway.gateway.server.RequestProperties;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.cloud.gateway.filter.headers.TrustedProxies;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the gateway does to requests on their way to a backend: the unkeyed headers kept
 * from a cached route's backend, always; and, unless {@code memcached.backend.hardening}
 * is false, the backend client's hardening and the filters that turn its failures into
 * the answers nginx would give.
 */
@Configuration(proxyBeanMethods = false)
public class BackendConfiguration {

    @Bean
    @ConditionalOnMissingBean
    UnkeyedHeadersFilter unkeyedHeadersFilter(RequestProperties properties,
            @Value("${" + TrustedProxies.PROPERTY + ":}") String trustedProxies) {
        return new UnkeyedHeadersFilter(properties, trustedProxies);
    }

    /** The hardening, on every route. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnProperty(prefix = "memcached.backend", name = "hardening", matchIfMissing = true)
    static class Hardening {

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

    }

}
