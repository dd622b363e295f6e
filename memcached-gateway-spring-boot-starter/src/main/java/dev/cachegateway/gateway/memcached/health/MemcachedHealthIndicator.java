package dev.cachegateway.gateway.memcached.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;

import dev.cachegateway.gateway.memcached.ReactiveMemcached;
import dev.cachegateway.gateway.memcached.ServerState;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.health.contributor.AbstractReactiveHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code memcached} component of {@code /actuator/health}: up while at least one
 * server is connected and answers in time, down with the reason when none does; each
 * server's address, connection, breaker, version, whether it takes meta commands, and
 * answer are in the details. The gateway still answers from the backend while memcached
 * is down, so the container's health check uses the liveness group, which leaves this
 * component out.
 */
public class MemcachedHealthIndicator extends AbstractReactiveHealthIndicator {

    private final ReactiveMemcached memcached;

    public MemcachedHealthIndicator(ReactiveMemcached memcached) {
        super("memcached health check failed");
        this.memcached = memcached;
    }

    @Override
    protected Mono<Health> doHealthCheck(Health.Builder builder) {
        List<ServerState> servers = memcached.servers();
        return Flux.range(0, servers.size())
            .flatMapSequential(index -> answer(index, servers.get(index)))
            .collectList()
            .map(answers -> {
                Map<String, Object> details = new LinkedHashMap<>();
                for (int index = 0; index < servers.size(); index++) {
                    details.put(servers.get(index).server(), describe(servers.get(index), answers.get(index)));
                }
                builder.withDetail("servers", servers.size())
                    .withDetail("connected", servers.stream().filter(ServerState::connected).count())
                    .withDetail("nodes", details);
                long answering = answers.stream().filter("ok"::equals).count();
                if (answering > 0) {
                    return builder.up().build();
                }
                return builder.down().withDetail("error", reason(servers, answers)).build();
            });
    }

    private Mono<String> answer(int index, ServerState server) {
        if (!server.connected()) {
            return Mono.just(server.address() == null ? "does not resolve" : "not connected");
        }
        return memcached.probe(index)
            .thenReturn("ok")
            .onErrorResume(failure -> Mono
                .just(failure instanceof TimeoutException ? "did not answer in time" : failure.toString()));
    }

    private static Map<String, Object> describe(ServerState server, String answer) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("address", server.address() != null
                ? server.address().getAddress().getHostAddress() + ":" + server.address().getPort() : null);
        details.put("connected", server.connected());
        details.put("circuitBreaker", server.circuitBreaker().name());
        details.put("version", server.version());
        details.put("metaCommands", server.metaCommands());
        details.put("answer", answer);
        return details;
    }

    private static String reason(List<ServerState> servers, List<String> answers) {
        if (servers.stream().noneMatch(ServerState::connected)) {
            return "not connected to any memcached server";
        }
        return answers.contains("did not answer in time") ? "memcached did not answer in time"
                : "no memcached server answers";
    }

}
