package com.example.gateway;

import java.net.URI;
import java.net.http.HttpRequest;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

import io.opentelemetry.sdk.testing.exporter.InMemorySpanExporter;
import io.opentelemetry.sdk.trace.data.SpanData;

/**
 * W3C trace context for the tracing tests: new ids, the {@code traceparent} a request
 * comes with, and the spans a trace finished.
 */
final class TestTraces {

    private TestTraces() {
    }

    static String newTraceId() {
        return newSpanId() + newSpanId();
    }

    static String newSpanId() {
        // Never all zeros, which is no id.
        return HexFormat.of().toHexDigits(1L + ThreadLocalRandom.current().nextLong(Long.MAX_VALUE - 1));
    }

    /** A sampled {@code traceparent} of {@code trace}, its parent a new span. */
    static String sampled(String trace) {
        return "00-" + trace + "-" + newSpanId() + "-01";
    }

    /**
     * A GET of the gateway on {@code port}, with {@code traceparent} if it is not null.
     */
    static HttpRequest get(int port, String path, String traceparent) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
        if (traceparent != null) {
            request.header("traceparent", traceparent);
        }
        return request.build();
    }

    static List<SpanData> spans(InMemorySpanExporter exported, String trace) {
        return exported.getFinishedSpanItems().stream().filter(span -> span.getTraceId().equals(trace)).toList();
    }

}
