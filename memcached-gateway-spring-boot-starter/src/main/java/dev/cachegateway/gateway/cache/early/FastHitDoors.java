package dev.cachegateway.gateway.cache.early;

import dev.cachegateway.gateway.cache.purge.PurgeGuardFilter;
import dev.cachegateway.gateway.overload.AdmissionLimitFilter;
import dev.cachegateway.gateway.server.Http10KeepAliveFilter;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

import org.springframework.web.server.ServerWebExchange;
import org.springframework.web.server.WebFilter;

/**
 * The WebFilters whose work on a request {@link FastHitHandler} does itself, where
 * present.
 */
record FastHitDoors(@Nullable AdmissionLimitFilter admission, @Nullable WebFilter weights, boolean keepAlive) {

    // The Weight predicate reads what the gateway's WeightCalculatorWebFilter puts on
    // the exchange, at once and before its chain goes on.
    void weigh(ServerWebExchange exchange) {
        if (weights != null) {
            weights.filter(exchange, next -> Mono.empty());
        }
    }

    // The purge guard acts on DELETE alone, which is never answered here.
    boolean handles(WebFilter filter) {
        return filter == admission || filter == weights || filter instanceof Http10KeepAliveFilter
                || filter instanceof PurgeGuardFilter;
    }

}
