package dev.cachegateway.gateway.memcached;

import java.util.concurrent.TimeoutException;

import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.stereotype.Component;

/**
 * The {@code memcached} component of {@code /actuator/health}: up when a lookup reaches memcached and comes back in
 * time, down with the reason otherwise. The gateway still answers from the backend while memcached is down, so the
 * container's health check uses the liveness group, which leaves this component out.
 */
@Component("memcached")
class MemcachedHealthIndicator extends AbstractReactiveHealthIndicator {

    private final ReactiveMemcached memcached;

    MemcachedHealthIndicator(ReactiveMemcached memcached) {
        super("memcached health check failed");
        this.memcached = memcached;
    }

    @Override
    protected Mono<Health> doHealthCheck(Health.Builder builder) {
        builder.withDetail("servers", memcached.configuredServers())
                .withDetail("connected", memcached.availableServers())
                .withDetail("circuitBreaker", memcached.circuitBreakerState().name());
        return memcached.probe()
                .then(Mono.fromSupplier(() -> builder.up().build()))
                .onErrorResume(failure -> Mono.just(builder.down().withDetail("error", reason(failure)).build()));
    }

    private String reason(Throwable failure) {
        if (memcached.availableServers() == 0) {
            return "not connected to any memcached server";
        }
        return failure instanceof TimeoutException ? "memcached did not answer in time" : failure.toString();
    }
}
