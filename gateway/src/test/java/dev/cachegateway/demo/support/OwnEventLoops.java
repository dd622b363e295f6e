package dev.cachegateway.demo.support;

import java.time.Duration;

import org.springframework.beans.factory.config.BeanPostProcessor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.http.client.ReactorResourceFactory;

/**
 * Gives every application the tests start its own event loops, as a process of its own
 * has. By default they share Reactor Netty's global loops, and an application that closes
 * disposes of them: every other application still running in the test JVM lost its server
 * and its connections at once, so a class that closed a gateway broke the shared
 * {@link GatewayPair} for every class after it.
 */
@AutoConfiguration
public class OwnEventLoops {

    @Bean
    static BeanPostProcessor ownEventLoops() {
        return new BeanPostProcessor() {

            @Override
            public Object postProcessBeforeInitialization(Object bean, String name) {
                if (bean instanceof ReactorResourceFactory resources) {
                    resources.setUseGlobalResources(false);
                    // Its server has shut down gracefully by then: closing need not wait
                    // Netty's two quiet seconds more.
                    resources.setShutdownQuietPeriod(Duration.ZERO);
                }
                return bean;
            }

        };
    }

}
