package dev.cachegateway.gateway.memcached;

import java.io.IOException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import net.spy.memcached.AddrUtil;
import net.spy.memcached.ConnectionFactory;
import net.spy.memcached.ConnectionFactoryBuilder;
import net.spy.memcached.ConnectionFactoryBuilder.Locator;
import net.spy.memcached.DefaultHashAlgorithm;
import net.spy.memcached.FailureMode;
import net.spy.memcached.MemcachedClient;
import net.spy.memcached.ops.ArrayOperationQueueFactory;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.concurrent.CustomizableThreadFactory;

/**
 * The one spymemcached client of the gateway, set up for a cache in front of a service: an unreachable memcached
 * must cost a request nothing, so operations fail fast instead of waiting.
 */
@Configuration(proxyBeanMethods = false)
class MemcachedClientConfiguration {

    static {
        // spymemcached logs to stderr unless told otherwise.
        System.setProperty("net.spy.log.LoggerImpl", "net.spy.memcached.compat.log.SLF4JLogger");
    }

    @Bean
    ReactiveMemcached reactiveMemcached(MemcachedProperties properties) throws IOException {
        // Completions are handed to a few threads of our own, so that spymemcached's one I/O thread only does I/O.
        ExecutorService listeners = Executors.newFixedThreadPool(
                Runtime.getRuntime().availableProcessors(), daemonThreads("memcached-listener-"));
        MemcachedClient client = new MemcachedClient(connectionFactory(properties, listeners),
                AddrUtil.getAddresses(properties.getServers()));
        return new ReactiveMemcached(client, listeners, properties.getOperationTimeout(),
                properties.getShutdownTimeout());
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

    private static CustomizableThreadFactory daemonThreads(String prefix) {
        CustomizableThreadFactory threads = new CustomizableThreadFactory(prefix);
        threads.setDaemon(true);
        return threads;
    }
}
