package dev.cachegateway.gateway.server;

import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** What the gateway's own HTTP server does before any route: the request framing guard and HTTP/1.0 keep-alive. */
@Configuration(proxyBeanMethods = false)
public class ServerConfiguration {

    @Bean
    @ConditionalOnMissingBean
    RequestFramingCustomizer requestFramingCustomizer(RequestProperties properties) {
        return new RequestFramingCustomizer(properties);
    }

    @Bean
    @ConditionalOnMissingBean
    Http10KeepAliveFilter http10KeepAliveFilter() {
        return new Http10KeepAliveFilter();
    }
}
