package dev.cachegateway.gateway.memcached;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import net.spy.memcached.AddrUtil;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionFactoryBuilder.Locator;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.ops.ArrayOperationQueueFactory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The one spymemcached client of the gateway, set up for a cache in front of a service: an unreachable memcached
 * must cost a request nothing, so operations fail fast instead of waiting, and a circuit breaker stops asking a
 * memcached that keeps failing.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedClientConfiguration {

    private static final Logger logger = LoggerFactory.getLogger(MemcachedClientConfiguration.class);

    static {
        // spymemcached logs to stderr unless told otherwise.
        System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
    }

    @Bean
    CircuitBreakerRegistry memcachedCircuitBreakers(MemcachedProperties properties) {
        CircuitBreakerProperties settings = properties.getCircuitBreaker();
        return CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .failureRateThreshold(settings.getFailureRateThreshold())
                .slidingWindowSize(settings.getSlidingWindowSize())
                .minimumNumberOfCalls(settings.getMinimumNumberOfCalls())
                .waitDurationInOpenState(settings.getWaitInOpenState())
                .permittedNumberOfCallsInHalfOpenState(settings.getPermittedCallsInHalfOpenState())
                // Half-open on time, not on the next request, so the state metric tells the truth.
                .automaticTransitionFromOpenToHalfOpenEnabled(true)
                .build());
    }

    @Bean
    MeterBinder memcachedCircuitBreakerMetrics(CircuitBreakerRegistry memcachedCircuitBreakers) {
        return TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(memcachedCircuitBreakers);
    }

    @Bean
    ReactiveMemcached reactiveMemcached(MemcachedProperties properties, CircuitBreakerRegistry memcachedCircuitBreakers,
            MeterRegistry meters) throws IOException {
        CircuitBreaker breaker = memcachedCircuitBreakers.circuitBreaker("memcached");
        breaker.getEventPublisher().onStateTransition(event -> logger.warn("memcached circuit breaker {} -> {}: {}",
                event.getStateTransition().getFromState(), event.getStateTransition().getToState(),
                describe(event.getStateTransition())));
        // Completions are handed to a few threads of our own, so that spymemcached's one I/O thread only does I/O.
        ExecutorService listeners = Executors.newFixedThreadPool(
                Runtime.getRuntime().availableProcessors(), daemonThreads("memcached-listener-"));
        MemcachedClient client = new MemcachedClient(connectionFactory(properties, listeners),
                AddrUtil.getAddresses(properties.getServers()));
        return new ReactiveMemcached(client, listeners, properties, breaker, new OperationTimers(meters));
    }

    static ConnectionFactory connectionFactory(MemcachedProperties properties, ExecutorService listeners) {
        ConnectionFactoryBuilder builder = new ConnectionFactoryBuilder()
                .setProtocol(properties.getProtocol())
                .setOpTimeout(properties.getOperationTimeout().toMillis())
                .setDaemon(true)
                // Cancel: while a server is down its operations fail at once. Redistribute would queue them
                // behind the reconnect, or move keys to another server and serve stale items once it returns.
                .setFailureMode(FailureMode.Cancel)
                .setMaxReconnectDelay(Math.max(1, properties.getMaxReconnectDelay().toSeconds()))
                .setTimeoutExceptionThreshold(properties.getTimeoutExceptionThreshold())
                .setOpQueueFactory(new ArrayOperationQueueFactory(properties.getOperationQueueLength()))
                // 0: a full queue fails the caller at once. The default waits 10 s, on a Netty event loop here.
                .setOpQueueMaxBlockTime(0)
                .setListenerExecutorService(listeners);
        if (properties.getServers().size() > 1) {
            builder.setLocatorType(Locator.CONSISTENT).setHashAlg(DefaultHashAlgorithm.KETAMA_HASH);
        }
        return builder.build();
    }

    private static String describe(CircuitBreaker.StateTransition transition) {
        return switch (transition.getToState()) {
            case OPEN -> "memcached keeps failing; requests go straight to the backend";
            case HALF_OPEN -> "trying memcached again";
            case CLOSED -> "memcached answers again; lookups resume";
            default -> "";
        };
    }

    private static CustomizableThreadFactory daemonThreads(String prefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
        threads.setDaemon(true);
        return threads;
    }
}
