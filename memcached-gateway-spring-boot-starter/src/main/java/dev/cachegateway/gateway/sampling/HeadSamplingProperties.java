package dev.cachegateway.gateway.sampling;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Whether requests are decided for tracing before their server span
 * ({@link HeadSamplingAutoConfiguration}). Bound wherever the starter is, traced or not,
 * so that the settings check knows the setting where it switches head sampling off.
 */
@ConfigurationProperties("memcached.tracing")
public class HeadSamplingProperties {

    /**
     * Whether a request is decided for tracing as it arrives, so that one not sampled
     * gets no span at all; off, Boot makes a span for every request, for logs that must
     * carry every request's trace id.
     */
    private boolean headSampling = true;

    public boolean isHeadSampling() {
        return headSampling;
    }

    public void setHeadSampling(boolean headSampling) {
        this.headSampling = headSampling;
    }

}
