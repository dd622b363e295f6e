package dev.cachegateway.gateway.cache;

import java.util.Locale;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.gateway.cache.CacheMetrics.Bypass;
import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import dev.cachegateway.gateway.memcached.MemcachedLimits;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpResponse;

/**
 * What the cache did for one request. It is said once, when the response commits, in three places that therefore
 * cannot disagree: {@code X-Cache} (one word, for nginx-era tooling), RFC 9211 {@code Cache-Status}, and the
 * {@code memcached.cache.lookups} meter. Being written at commit, it also marks error pages and replaces an
 * {@code X-Cache} from the backend.
 */
final class CacheOutcome {

    /** The RFC 9211 response header. */
    static final String CACHE_STATUS = "Cache-Status";

    /** This cache's name in Cache-Status: a product name, the same on every replica. */
    static final String CACHE_NAME = "memcached-gateway";

    // Every hit says the same; built once rather than on each.
    private static final String HIT_MEMBER = CACHE_NAME + "; hit";

    private volatile CacheStatus status = CacheStatus.BYPASS;

    // RFC 9211 parameters: why the request went forward (null on a hit), and what became of the answer.
    private volatile String forward = "bypass";

    private volatile Boolean collapsed;

    private volatile boolean stored;

    private volatile String detail;

    private CacheOutcome() {
    }

    /** A new outcome for the exchange's response, written into it and counted when it commits. */
    static CacheOutcome of(ServerHttpResponse response, CacheMetrics metrics) {
        CacheOutcome outcome = new CacheOutcome();
        response.beforeCommit(() -> {
            HttpHeaders headers = response.getHeaders();
            headers.set(CacheStatus.HEADER, outcome.status.name());
            // Appended: the backend's own caches, if any, come first (RFC 9211 2).
            headers.add(CACHE_STATUS, outcome.cacheStatus());
            metrics.lookup(outcome.status);
            return Mono.empty();
        });
        return outcome;
    }

    void bypass(Bypass reason) {
        status = CacheStatus.BYPASS;
        forward = switch (reason) {
            case METHOD -> "method";
            // A bypass header such as Authorization: the request's own semantics forbid a shared answer.
            case HEADER -> "request";
            case KEY -> "bypass";
        };
    }

    void hit() {
        status = CacheStatus.HIT;
        forward = null;
    }

    void miss() {
        status = CacheStatus.MISS;
        forward = "uri-miss";
    }

    /** In memcached, but not in a form this client takes (gzip for a client without gzip): RFC 9211's vary-miss. */
    void varyMiss() {
        status = CacheStatus.MISS;
        forward = "vary-miss";
    }

    /** memcached could not say: a timeout, an open circuit, or another failure. */
    void error(Throwable failure) {
        status = CacheStatus.ERROR;
        forward = "miss";
        detail = failure instanceof TimeoutException ? "timeout"
                : MemcachedLimits.isCircuitOpen(failure) ? "circuit-open" : "error";
    }

    /** Answered with another request's backend answer. */
    void coalesced() {
        status = CacheStatus.COALESCED;
        forward = "uri-miss";
        collapsed = true;
    }

    /** Waited for another request's backend answer, got none, and asked the backend itself. */
    void collapseFailed() {
        status = CacheStatus.MISS;
        forward = "uri-miss";
        collapsed = false;
    }

    void stored() {
        stored = true;
    }

    void notStored(Skip reason) {
        stored = false;
        detail = reason.name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    CacheStatus status() {
        return status;
    }

    /** This cache's member of the Cache-Status list, an RFC 8941 item with parameters. */
    String cacheStatus() {
        if (forward == null) {
            return HIT_MEMBER;
        }
        StringBuilder member = new StringBuilder(64).append(CACHE_NAME);
        member.append("; fwd=").append(forward);
        if (collapsed != null) {
            member.append(collapsed ? "; collapsed" : "; collapsed=?0");
        }
        if (stored) {
            member.append("; stored");
        }
        if (detail != null) {
            member.append("; detail=").append(detail);
        }
        return member.toString();
    }
}
