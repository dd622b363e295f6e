package dev.cachegateway.gateway.sampling;

import dev.cachegateway.gateway.cache.early.TraceDecisions;
import org.jspecify.annotations.Nullable;

/**
 * What was decided for a request's trace before any tracing handler saw it, kept on its
 * observation's context and taken on by the observations under it.
 */
final class HeadSampling implements TraceDecisions.Decision {

    /**
     * Traced as Boot traces it, the tracer's sampler deciding: a request that came with a
     * sampled parent or one the gateway cannot read, and everything under a sampled root.
     */
    static final HeadSampling TRACED = new HeadSampling(true, null);

    /**
     * A root drawn sampled here: its span must be sampled, or the draw would be made a
     * second time by the tracer's ratio sampler.
     */
    static final HeadSampling DRAWN = new HeadSampling(true, null);

    private final boolean traced;

    // Made when a call first needs it, and kept, so that every call of the request sends
    // the same; two calls at once may each make one, which only costs random ids.
    private volatile @Nullable String traceparent;

    private HeadSampling(boolean traced, @Nullable String traceparent) {
        this.traced = traced;
        this.traceparent = traceparent;
    }

    /**
     * Not sampled: no tracing at all, and its calls send on {@code incoming}, or random
     * ids with the sampled flag 00 where it came with none.
     */
    static HeadSampling unsampled(@Nullable String incoming) {
        return new HeadSampling(false, incoming);
    }

    @Override
    public boolean traced() {
        return traced;
    }

    boolean drawn() {
        return this == DRAWN;
    }

    /** What an observation under this one takes on: only "not sampled" is inherited. */
    HeadSampling forChild() {
        return traced ? TRACED : this;
    }

    /** The {@code traceparent} that the calls of an unsampled request send on. */
    String traceparent() {
        String sent = traceparent;
        if (sent == null) {
            sent = Traceparents.unsampled();
            traceparent = sent;
        }
        return sent;
    }

}
