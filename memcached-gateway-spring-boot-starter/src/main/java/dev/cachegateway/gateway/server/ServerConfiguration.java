package dev.cachegateway.gateway.server;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * What the gateway's own HTTP server does before any route: HTTP/1.0 keep-alive, always,
 * and the request framing guard where {@code memcached.request.framing-guard} is true.
 */
@Configuration(proxyBeanMethods = false)
public class ServerConfiguration {

    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnProperty(prefix = "memcached.request", name = "framing-guard", havingValue = "true")
    RequestFramingCustomizer requestFramingCustomizer(RequestProperties properties) {
        return new RequestFramingCustomizer(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    Http10KeepAliveFilter http10KeepAliveFilter() {
        return new Http10KeepAliveFilter();
    }

}
