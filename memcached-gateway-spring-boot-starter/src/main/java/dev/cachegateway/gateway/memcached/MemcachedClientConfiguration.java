package dev.cachegateway.gateway.memcached;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.cachegateway.gateway.memcached.health.MemcachedHealthIndicator;
import dev.cachegateway.gateway.memcached.operation.CompletionThreads;
import dev.cachegateway.gateway.memcached.operation.GatewayDelayException;
import dev.cachegateway.gateway.memcached.operation.OperationTimers;
import dev.cachegateway.gateway.memcached.pool.MemcachedPool;
import dev.cachegateway.gateway.memcached.pool.PoolConnection;
import dev.cachegateway.gateway.memcached.pool.PoolNode;
import dev.cachegateway.gateway.memcached.pool.ProbeKeys;
import dev.cachegateway.gateway.memcached.pool.ServerAddress;
import dev.cachegateway.gateway.memcached.pool.ServerResolver;
import dev.cachegateway.gateway.memcached.ring.HashRing;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.netty.util.concurrent.ImmediateEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The gateway's pool of memcached servers: one spymemcached client at a time, a ring
 * shared with other clients, a circuit breaker per server, and a thread that follows the
 * servers' addresses.
 */
@Configuration(proxyBeanMethods = false)
public class MemcachedClientConfiguration {

    private static final Logger logger = LoggerFactory.getLogger(MemcachedClientConfiguration.class);

    @Bean
    @ConditionalOnMissingBean(name = "memcachedCircuitBreakers")
    CircuitBreakerRegistry memcachedCircuitBreakers(MemcachedProperties properties) {
        CircuitBreakerProperties settings = properties.getCircuitBreaker();
        return CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
            .failureRateThreshold(settings.getFailureRateThreshold())
            .slidingWindowSize(settings.getSlidingWindowSize())
            .minimumNumberOfCalls(settings.getMinimumNumberOfCalls())
            .waitDurationInOpenState(settings.getWaitInOpenState())
            .permittedNumberOfCallsInHalfOpenState(settings.getPermittedCallsInHalfOpenState())
            // Half-open on time, not on the next request, so the state metric tells the
            // truth.
            .automaticTransitionFromOpenToHalfOpenEnabled(true)
            // The gateway's own pause says nothing about memcached: it must neither open
            // nor close a breaker.
            .ignoreExceptions(GatewayDelayException.class)
            .build());
    }

    @Bean
    @ConditionalOnMissingBean(name = "memcachedCircuitBreakerMetrics")
    MeterBinder memcachedCircuitBreakerMetrics(CircuitBreakerRegistry memcachedCircuitBreakers) {
        return TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(memcachedCircuitBreakers);
    }

    @Bean
    @ConditionalOnMissingBean
    ReactiveMemcached reactiveMemcached(MemcachedProperties properties, CircuitBreakerRegistry memcachedCircuitBreakers,
            MeterRegistry meters, ObjectProvider<ServerResolver> resolver) {
        return reactiveMemcached(properties, memcachedCircuitBreakers, meters,
                resolver.getIfAvailable(() -> ServerResolver.DNS));
    }

    static ReactiveMemcached reactiveMemcached(MemcachedProperties properties, CircuitBreakerRegistry breakers,
            MeterRegistry meters, ServerResolver resolver) {
        List<ServerAddress> servers = properties.getServers().stream().map(ServerAddress::parse).toList();
        HashRing ring = properties.getRing().build(servers);
        List<PoolNode> nodes = new ArrayList<>();
        for (int index = 0; index < servers.size(); index++) {
            ServerAddress server = servers.get(index);
            nodes.add(new PoolNode(index, server, breaker(breakers, server), new OperationTimers(meters, server.text()),
                    ProbeKeys.onServer(ring, index)));
        }
        // spymemcached runs its listeners on its I/O thread, and they only hand the
        // completion to CompletionThreads.
        ExecutorService listeners = ImmediateEventExecutor.INSTANCE;
        CompletionThreads completions = new CompletionThreads(Executors
            .newFixedThreadPool(Runtime.getRuntime().availableProcessors(), daemonThreads("memcached-completion-")));
        MemcachedPool pool = new MemcachedPool(nodes, ring, resolver,
                addresses -> PoolConnection.open(addresses, properties, listeners, ring),
                properties.getShutdownTimeout());
        ScheduledExecutorService refresher = Executors
            .newSingleThreadScheduledExecutor(daemonThreads("memcached-resolver-"));
        long interval = properties.getResolveInterval().toMillis();
        refresher.scheduleWithFixedDelay(() -> refresh(pool), interval, interval, TimeUnit.MILLISECONDS);
        return new ReactiveMemcached(pool, properties.getOperationTimeout(), properties.getMaxGatewayDelay(),
                properties.isMetaCommands(), refresher::shutdownNow, completions);
    }

    // A failed refresh must not end the schedule: the next one may succeed.
    private static void refresh(MemcachedPool pool) {
        try {
            pool.refresh();
        }
        catch (RuntimeException ex) {
            logger.warn("following the memcached servers' addresses failed; trying again", ex);
        }
    }

    private static CircuitBreaker breaker(CircuitBreakerRegistry registry, ServerAddress server) {
        CircuitBreaker breaker = registry.circuitBreaker(server.text());
        BreakerTransitionLog.follow(breaker, server);
        return breaker;
    }

    private static CustomizableThreadFactory daemonThreads(String prefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
        threads.setDaemon(true);
        return threads;
    }

    // Named so that its health contributor is "memcached".
    @Bean
    @ConditionalOnMissingBean
    MemcachedHealthIndicator memcachedHealthIndicator(ReactiveMemcached memcached) {
        return new MemcachedHealthIndicator(memcached);
    }

}
