package dev.cachegateway.demo.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;

import dev.cachegateway.gateway.cache.miss.InFlightRequests;
import dev.cachegateway.gateway.cache.miss.ResponseStore;
import dev.cachegateway.gateway.cache.stale.BackgroundRefresh;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.ApplicationContext;

/**
 * Waits until a gateway has nothing under way that could still write to memcached: no
 * lead, refresh or store, and no invalidation owed. A test that empties memcached after
 * that starts from nothing; before it, a store that the test before left on its way could
 * land in this one.
 */
public final class GatewayAtRest {

    private GatewayAtRest() {
    }

    public static void waitFor(ApplicationContext gateway) {
        InFlightRequests leads = gateway.getBean(InFlightRequests.class);
        BackgroundRefresh refreshes = gateway.getBean(BackgroundRefresh.class);
        ResponseStore stores = gateway.getBean(ResponseStore.class);
        MeterRegistry meters = gateway.getBean(MeterRegistry.class);
        // A lead hands on to its store, and a refresh to its, before it ends: read
        // together, the four never all show zero while a write is still to come.
        await("the gateway at rest").atMost(Duration.ofSeconds(30))
            .pollInterval(Duration.ofMillis(20))
            .untilAsserted(() -> assertThat(new long[] { leads.running(), refreshes.underWay(), stores.underWay(),
                    (long) meters.get("memcached.cache.invalidations.owed").gauge().value() })
                .as("leads, refreshes, stores and invalidations owed")
                .containsOnly(0L));
    }

}
