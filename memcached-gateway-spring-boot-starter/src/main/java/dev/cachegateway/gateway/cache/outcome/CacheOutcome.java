package dev.cachegateway.gateway.cache.outcome;

import java.util.concurrent.TimeoutException;

import dev.cachegateway.gateway.cache.outcome.CacheMetrics.Bypass;
import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.cache.response.CurrentDate;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * What the cache did for one request. It is said once, when the response commits, in
 * three places that therefore cannot disagree: {@code X-Cache} (one word, for nginx-era
 * tooling), RFC 9211 {@code Cache-Status}, and the {@code memcached.cache.lookups} meter.
 * Being written at commit, it also marks error pages and replaces an {@code X-Cache} from
 * the backend. A fresh hit answered before routing is said as its answer's headers are
 * set, just before the write that commits it ({@link #sayHit}).
 */
public final class CacheOutcome {

    private volatile XCache status = XCache.BYPASS;

    // RFC 9211 parameters: why the request went forward (null on a hit), and what became
    // of the answer.
    private volatile @Nullable String forward = "bypass";

    private volatile @Nullable Boolean collapsed;

    private volatile boolean stored;

    private volatile @Nullable String detail;

    // Seconds of freshness left, negative when stale; only said for stale answers.
    private volatile @Nullable Long ttl;

    private volatile @Nullable Integer backendStatus;

    private CacheOutcome() {
    }

    /**
     * An outcome said nowhere and counted by no meter: a background refresh has no client
     * to tell.
     */
    public static CacheOutcome detached() {
        return new CacheOutcome();
    }

    /**
     * A new outcome for the exchange's response, written into it and counted when it
     * commits.
     */
    public static CacheOutcome of(ServerHttpResponse response, CacheMetrics.Lookups lookups) {
        CacheOutcome outcome = new CacheOutcome();
        response.beforeCommit(() -> {
            outcome.say(response.getHeaders(), lookups);
            return Mono.empty();
        });
        return outcome;
    }

    /**
     * A fresh hit, said on {@code response} at once, as its commit would say it: for an
     * answer whose headers are all set and whose write commits the response as it starts.
     * A response with no action to run at its commit commits without the Flux that Spring
     * builds to run its actions, one per hit otherwise.
     */
    public static void sayHit(ServerHttpResponse response, CacheMetrics.Lookups lookups) {
        CacheOutcome outcome = new CacheOutcome();
        outcome.hit();
        outcome.say(response.getHeaders(), lookups);
    }

    private void say(HttpHeaders headers, CacheMetrics.Lookups lookups) {
        headers.set(XCache.HEADER, status.name());
        // Appended: the backend's own caches, if any, come first (RFC 9211 2).
        headers.add(CacheStatusField.HEADER, cacheStatus());
        lookups.count(status);
        // Here, where every answer of a cached route passes at its commit, at no cost of
        // a hook of its own.
        CurrentDate.addIfMissing(headers);
    }

    public void bypass(Bypass reason) {
        status = XCache.BYPASS;
        forward = switch (reason) {
            case METHOD -> "method";
            // A bypass header such as Authorization: the request's own semantics forbid a
            // shared answer.
            case HEADER -> "request";
            case KEY -> "bypass";
        };
    }

    public void hit() {
        status = XCache.HIT;
        forward = null;
    }

    public void miss() {
        status = XCache.MISS;
        forward = "uri-miss";
    }

    /**
     * In memcached, but not in a form this client takes (gzip for a client without gzip):
     * RFC 9211's vary-miss.
     */
    public void varyMiss() {
        status = XCache.MISS;
        forward = "vary-miss";
    }

    /**
     * The lookup failed: memcached timed out, its circuit is open, another failure, or
     * the gateway itself was paused or behind for so long that it gave up waiting
     * ({@code gateway-delay}, not memcached's failure).
     */
    public void error(Throwable failure) {
        status = XCache.ERROR;
        forward = "miss";
        detail = failure instanceof TimeoutException ? "timeout" : MemcachedLimits.isCircuitOpen(failure)
                ? "circuit-open" : MemcachedLimits.isGatewayDelay(failure) ? "gateway-delay" : "error";
    }

    /** Answered with another request's backend answer. */
    public void coalesced() {
        status = XCache.COALESCED;
        forward = "uri-miss";
        collapsed = true;
    }

    /**
     * Waited for another request's backend answer, got none, and asked the backend
     * itself.
     */
    public void collapseFailed() {
        status = XCache.MISS;
        forward = "uri-miss";
        collapsed = false;
    }

    /**
     * Answered with a stale item while one gateway refreshes it; {@code ttl} is its
     * freshness left, negative.
     */
    public void updating(long ttl) {
        status = XCache.UPDATING;
        forward = null;
        this.ttl = ttl;
        detail = "stale-while-revalidate";
    }

    /** A stale item went to the backend, past its stale-while-revalidate window. */
    public void expired(long ttl) {
        status = XCache.EXPIRED;
        forward = "stale";
        this.ttl = ttl;
    }

    /**
     * The backend failed, with this status (or none, when it did not answer), so the
     * stale item answered.
     */
    public void staleOnError(@Nullable Integer backendStatus) {
        status = XCache.STALE;
        forward = "stale";
        stored = false;
        detail = "stale-if-error";
        this.backendStatus = backendStatus;
    }

    /**
     * A stale item was revalidated: the backend answered its conditional request with 304
     * Not Modified.
     */
    public void revalidated() {
        status = XCache.REVALIDATED;
        forward = "stale";
        backendStatus = 304;
    }

    public void stored() {
        stored = true;
    }

    public void notStored(Skip reason) {
        stored = false;
        detail = CacheMetrics.tag(reason);
    }

    public XCache status() {
        return status;
    }

    /** This cache's member of the Cache-Status list, an RFC 8941 item with parameters. */
    public String cacheStatus() {
        return CacheStatusField.member(forward, backendStatus, ttl, collapsed, stored, detail);
    }

}
