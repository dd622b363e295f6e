package com.example.gateway;

import static io.opentelemetry.api.common.AttributeKey.stringKey;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.sampling.DirectSpanExportAutoConfiguration;
import io.micrometer.tracing.exporter.SpanFilter;
import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration;
import org.springframework.boot.opentelemetry.autoconfigure.OpenTelemetrySdkAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Spans reach the application's exporter as the OpenTelemetry SDK made them, through
 * Boot's batch settings, unless the application has a Micrometer span filter (or
 * exporting predicate, or reporter) for Boot's batch to apply.
 */
class DirectSpanExportTests {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
        .withConfiguration(AutoConfigurations.of(OpenTelemetrySdkAutoConfiguration.class,
                DirectSpanExportAutoConfiguration.class, OpenTelemetryTracingAutoConfiguration.class))
        .withPropertyValues("management.tracing.sampling.probability=1.0")
        .withBean(InMemorySpanExporter.class, InMemorySpanExporter::create);

    @Test
    void exportsTheSpansTheSdkMadeWhereNothingOfMicrometersIsToBeApplied() {
        runner.run(context -> {
            assertThat(context).hasSingleBean(BatchSpanProcessor.class);
            assertThat(context).hasBean("directSpanProcessor");
            assertThat(exported(context)).singleElement().satisfies(span -> {
                assertThat(span.getName()).isEqualTo("memcached.cache.lookup");
                assertThat(span.getAttributes().get(stringKey("result"))).isEqualTo("hit");
                // Not Micrometer's copy, which builds its attributes anew on each read.
                assertThat(span.getClass().getName()).doesNotContain("OtelFinishedSpan");
            });
        });
    }

    @Test
    void leavesBootsBatchToAnApplicationThatFiltersSpans() {
        runner.withBean(SpanFilter.class, () -> span -> span.setName("filtered")).run(context -> {
            assertThat(context).doesNotHaveBean("directSpanProcessor");
            assertThat(context).hasSingleBean(BatchSpanProcessor.class);
            assertThat(exported(context)).singleElement()
                .satisfies(span -> assertThat(span.getName()).isEqualTo("filtered"));
        });
    }

    @Test
    void takesBootsBatchSettings() {
        runner.withPropertyValues("management.opentelemetry.tracing.export.max-batch-size=7")
            .run(context -> assertThat(context.getBean(BatchSpanProcessor.class).toString())
                .contains("maxExportBatchSize=7"));
    }

    private static List<SpanData> exported(ApplicationContext context) {
        SdkTracerProvider tracers = context.getBean(SdkTracerProvider.class);
        tracers.get("test").spanBuilder("memcached.cache.lookup").setAttribute("result", "hit").startSpan().end();
        tracers.forceFlush().join(10, TimeUnit.SECONDS);
        return context.getBean(InMemorySpanExporter.class).getFinishedSpanItems();
    }

}
