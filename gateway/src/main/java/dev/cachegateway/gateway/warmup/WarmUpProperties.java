package dev.cachegateway.gateway.warmup;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;

/** How long, and how hard, the gateway warms itself up before its readiness says UP. */
@ConfigurationProperties("gateway.warm-up")
public class WarmUpProperties {

    /** How long the gateway sends itself requests before it says it is ready; 0 (the default) is off. */
    private Duration duration = Duration.ZERO;

    /**
     * How many of those requests are in flight at once. Few: the JIT compiler needs most of the CPU, and what it
     * compiles depends on which paths run, not on how often.
     */
    private int concurrency = 4;

    public Duration getDuration() {
        return duration;
    }

    public void setDuration(Duration duration) {
        this.duration = duration;
    }

    public int getConcurrency() {
        return concurrency;
    }

    public void setConcurrency(int concurrency) {
        this.concurrency = concurrency;
    }
}
