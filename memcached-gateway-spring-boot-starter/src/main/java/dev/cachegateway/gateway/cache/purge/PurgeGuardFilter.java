package dev.cachegateway.gateway.cache.purge;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

import dev.cachegateway.gateway.cache.purge.PurgeAccess.Verdict;
import dev.cachegateway.gateway.logging.BurstLog;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.MediaType;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;
import org.springframework.web.server.WebFilterChain;

/**
 * Guards the purges of the {@code memcached} management endpoint: a {@code DELETE} under
 * its path goes on only as {@link PurgeAccess} allows, and is logged once and counted in
 * {@code memcached.cache.purges} (by {@code key}, {@code tag} or {@code path}, and the
 * answer's status). A refusal is answered here, in JSON, before the endpoint is reached.
 */
public final class PurgeGuardFilter implements WebFilter {

    private static final Logger log = LoggerFactory.getLogger(PurgeGuardFilter.class);

    // A scanner that hammers the port would otherwise write a line per request.
    private static final BurstLog refusals = BurstLog.of(PurgeGuardFilter.class);

    private final PurgeAccess access;

    private final String endpointPath;

    private final MeterRegistry meters;

    public PurgeGuardFilter(PurgeAccess access, String endpointPath, MeterRegistry meters) {
        this.access = access;
        this.endpointPath = endpointPath;
        this.meters = meters;
    }

    @Override
    public Mono<Void> filter(ServerWebExchange exchange, WebFilterChain chain) {
        ServerHttpRequest request = exchange.getRequest();
        String path = request.getPath().pathWithinApplication().value();
        if (!HttpMethod.DELETE.equals(request.getMethod()) || !isPurge(path)) {
            return chain.filter(exchange);
        }
        String by = !path.equals(endpointPath) ? "path" : request.getQueryParams().containsKey("tag") ? "tag" : "key";
        // As the endpoint reads its boolean: anything but "true" is a hard purge.
        String mode = "true".equalsIgnoreCase(request.getQueryParams().getFirst("soft")) ? "soft" : "hard";
        String target = mode + " purge of " + target(request, path, by);
        Verdict verdict = access.judge(request.getHeaders().getFirst(HttpHeaders.AUTHORIZATION));
        if (verdict != Verdict.ALLOWED) {
            HttpStatus status = verdict == Verdict.UNAUTHORIZED ? HttpStatus.UNAUTHORIZED : HttpStatus.FORBIDDEN;
            refusals.warn("Purge refused", target + " from " + peer(request) + ": " + status.value());
            count(by, mode, status);
            return refuse(exchange.getResponse(), verdict, status);
        }
        // Said as the answer is committed, not once it is written: a client that reads
        // the meter or the log right after its answer finds the purge there.
        exchange.getResponse().beforeCommit(() -> {
            HttpStatusCode status = exchange.getResponse().getStatusCode();
            log.info("A {} from {}: {}", target, peer(request), status == null ? 200 : status.value());
            count(by, mode, status == null ? HttpStatus.OK : status);
            return Mono.empty();
        });
        return chain.filter(exchange);
    }

    private boolean isPurge(String path) {
        return path.equals(endpointPath) || path.startsWith(endpointPath + "/");
    }

    // "key <key>" for ?key=, "tag <tag>" for ?tag=, "path <path>" for a path below the
    // endpoint's; control characters shown as '?', so that a key cannot forge a log
    // line.
    private String target(ServerHttpRequest request, String path, String by) {
        String named = by.equals("path") ? path.substring(endpointPath.length())
                : request.getQueryParams().getFirst(by);
        return (by + " " + named).replaceAll("\\p{Cntrl}", "?");
    }

    private void count(String by, String mode, HttpStatusCode status) {
        Counter.builder("memcached.cache.purges")
            .description("Purges through the memcached management endpoint, by what they named, hard or soft, and their"
                    + " answer")
            .tag("by", by)
            .tag("mode", mode)
            .tag("status", Integer.toString(status.value()))
            .register(meters)
            .increment();
    }

    private static String peer(ServerHttpRequest request) {
        @Nullable InetSocketAddress remote = request.getRemoteAddress();
        return remote == null ? "an unknown peer" : remote.getAddress() == null ? remote.getHostString()
                : remote.getAddress().getHostAddress() + ":" + remote.getPort();
    }

    private static Mono<Void> refuse(ServerHttpResponse response, Verdict verdict, HttpStatus status) {
        String error = verdict == Verdict.UNAUTHORIZED
                ? "a purge needs Authorization: Bearer <memcached.cache.purge-token>"
                : "purges are off: set memcached.cache.purge-token, or memcached.cache.purge-unauthenticated=true";
        response.setStatusCode(status);
        if (verdict == Verdict.UNAUTHORIZED) {
            response.getHeaders().set(HttpHeaders.WWW_AUTHENTICATE, "Bearer realm=\"memcached\"");
        }
        response.getHeaders().setContentType(MediaType.APPLICATION_JSON);
        byte[] body = ("{\"error\":\"" + error + "\"}").getBytes(StandardCharsets.UTF_8);
        return response.writeWith(Mono.just(response.bufferFactory().wrap(body)));
    }

    /**
     * Spring's filter chain names each filter in a checkpoint on every request, by this:
     * a constant spares each request building {@code Object}'s name and hash.
     */
    @Override
    public String toString() {
        return "PurgeGuardFilter";
    }

}
