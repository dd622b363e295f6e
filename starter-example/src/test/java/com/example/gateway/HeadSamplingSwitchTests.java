package com.example.gateway;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cachegateway.gateway.sampling.HeadSamplingAutoConfiguration;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Head sampling is what the starter does under Boot's OpenTelemetry bridge, and one
 * property gives Boot's own way back, for logs that must carry every request's trace id.
 */
class HeadSamplingSwitchTests {

    private final ApplicationContextRunner context = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(HeadSamplingAutoConfiguration.class));

    @Test
    void samplesAtTheHeadByDefault() {
        context.run(started -> {
            assertThat(started).hasBean("headSampler");
            assertThat(started.getBean(Sampler.class).getClass().getSimpleName()).isEqualTo("ForcedRootSampler");
        });
    }

    @Test
    void leavesTracingToBootWhenSwitchedOff() {
        context.withPropertyValues("memcached.tracing.head-sampling=false").run(started -> {
            assertThat(started).doesNotHaveBean("headSampler");
            assertThat(started).doesNotHaveBean(Sampler.class);
        });
    }

    @Test
    void leavesTracingToTheApplicationsOwnSampler() {
        context.withBean(Sampler.class, Sampler::alwaysOn).run(started -> {
            assertThat(started).doesNotHaveBean("headSampler");
            assertThat(started.getBean(Sampler.class)).isSameAs(Sampler.alwaysOn());
        });
    }

}
