package dev.cachegateway.gateway.sampling;

import io.opentelemetry.api.metrics.MeterProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessorBuilder;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingProperties;
import org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SpanExporters;
import org.springframework.context.annotation.Bean;

/**
 * Boot's batch of spans, handing them to the exporters as the SDK made them, where the
 * application has no span filter, exporting predicate or reporter of Micrometer's. Boot
 * exports through Micrometer's {@code CompositeSpanExporter}, which copies every span to
 * apply those, and whose copy builds and sorts the span's attributes and resource anew
 * each time the OTLP exporter reads them: with none to apply, that was a third of the
 * export's CPU at 10% sampling (bench/README.md, "Tracing"). Built from Boot's export
 * settings as Boot builds its own; any of those beans, or a batch processor of the
 * application's, leaves Boot's in place.
 */
@AutoConfiguration(
        beforeName = "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.OpenTelemetryTracingAutoConfiguration")
@ConditionalOnClass(name = { "io.opentelemetry.sdk.trace.export.BatchSpanProcessor",
        "org.springframework.boot.micrometer.tracing.opentelemetry.autoconfigure.SpanExporters",
        "io.micrometer.tracing.exporter.SpanFilter" })
@ConditionalOnProperty(prefix = "memcached", name = "enabled", matchIfMissing = true)
@ConditionalOnMissingBean(type = { "io.opentelemetry.sdk.trace.export.BatchSpanProcessor",
        "io.micrometer.tracing.exporter.SpanFilter", "io.micrometer.tracing.exporter.SpanExportingPredicate",
        "io.micrometer.tracing.exporter.SpanReporter" })
@EnableConfigurationProperties(OpenTelemetryTracingProperties.class)
public class DirectSpanExportAutoConfiguration {

    @Bean
    BatchSpanProcessor directSpanProcessor(SpanExporters exporters, OpenTelemetryTracingProperties tracing,
            ObjectProvider<MeterProvider> meterProvider) {
        OpenTelemetryTracingProperties.Export export = tracing.getExport();
        BatchSpanProcessorBuilder builder = BatchSpanProcessor.builder(SpanExporter.composite(exporters.list()))
            .setExportUnsampledSpans(export.isIncludeUnsampled())
            .setExporterTimeout(export.getTimeout())
            .setMaxExportBatchSize(export.getMaxBatchSize())
            .setMaxQueueSize(export.getMaxQueueSize())
            .setScheduleDelay(export.getScheduleDelay());
        meterProvider.ifAvailable(builder::setMeterProvider);
        return builder.build();
    }

}
