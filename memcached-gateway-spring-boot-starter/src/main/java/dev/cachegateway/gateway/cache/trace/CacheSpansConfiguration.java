package dev.cachegateway.gateway.cache.trace;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import io.micrometer.tracing.Tracer;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The cache's spans: on where the application has a tracer (a Micrometer Tracing bridge
 * and its auto-configuration), off otherwise, Boot's no-op tracer included.
 */
@Configuration(proxyBeanMethods = false)
public class CacheSpansConfiguration {

    @Bean
    @ConditionalOnMissingBean
    CacheSpans untracedCacheSpans() {
        return CacheSpans.off();
    }

    // Read before the bean above, as a member class is; the tracer is asked for when the
    // spans are made, after every configuration has had its say.
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(Tracer.class)
    static class WhereTracing {

        @Bean
        @ConditionalOnMissingBean
        CacheSpans cacheSpans(ObjectProvider<Tracer> tracers, ReactiveMemcached memcached) {
            Tracer tracer = tracers.getIfAvailable();
            if (tracer == null || tracer == Tracer.NOOP) {
                return CacheSpans.off();
            }
            return CacheSpans.on(new TracerSpans(tracer), memcached);
        }

    }

}
