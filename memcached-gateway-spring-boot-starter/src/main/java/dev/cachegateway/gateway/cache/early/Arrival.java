package dev.cachegateway.gateway.cache.early;

import java.util.concurrent.atomic.AtomicBoolean;

import io.micrometer.core.instrument.Timer;

/**
 * What a traced request started as it arrived, before its lookup: its server span and a
 * sample of the timer's clock, which a server observation made later takes on
 * ({@link TracedRequest}); and whether its client left before it was answered.
 */
final class Arrival extends AtomicBoolean {

    private final ServerSpans.ServerSpan span;

    private final Timer.Sample sample;

    Arrival(ServerSpans.ServerSpan span, Timer.Sample sample) {
        this.span = span;
        this.sample = sample;
    }

    ServerSpans.ServerSpan span() {
        return span;
    }

    Timer.Sample sample() {
        return sample;
    }

    void clientLeft() {
        set(true);
    }

}
