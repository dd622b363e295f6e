package dev.cachegateway.gateway.warmup;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.MemcachedContainer;
import dev.cachegateway.demo.support.RecordingBackend;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Import;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * A gateway that starts with a warm-up, in front of a real memcached (a container per
 * test class) and a real backend. Not a {@link CacheIntegrationTest}: that one empties
 * memcached before each test, and what the warm-up left there is under test. Each class
 * says how its gateway warms up in its {@code @SpringBootTest}.
 */
@Testcontainers
@DirtiesContext // each class has its own memcached, so no other class may reuse this
                // context
@Import(WarmUpIntegrationTest.ReadinessWatch.class)
abstract class WarmUpIntegrationTest {

    @Container
    static final GenericContainer<?> memcached = MemcachedContainer.create();

    static final RecordingBackend backend = RecordingBackend.startQuietly();

    @DynamicPropertySource
    static void gatewayProperties(DynamicPropertyRegistry registry) {
        CacheIntegrationTest.gatewayProperties(registry, memcached, backend);
    }

    @Autowired
    ReadinessWatch readiness;

    /**
     * The lookups counted by result, and by route and result ("route result"), at the
     * moment readiness turns to ACCEPTING_TRAFFIC.
     */
    @TestConfiguration(proxyBeanMethods = false)
    static class ReadinessWatch implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

        final Map<String, Double> lookupsWhenReady = new ConcurrentHashMap<>();

        final Map<String, Double> routeLookupsWhenReady = new ConcurrentHashMap<>();

        private final ObjectProvider<MeterRegistry> meters;

        ReadinessWatch(ObjectProvider<MeterRegistry> meters) {
            this.meters = meters;
        }

        @Override
        public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
            if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
                for (Counter counter : meters.getObject().find("memcached.cache.lookups").counters()) {
                    lookupsWhenReady.merge(counter.getId().getTag("result"), counter.count(), Double::sum);
                    routeLookupsWhenReady.put(counter.getId().getTag("route") + " " + counter.getId().getTag("result"),
                            counter.count());
                }
            }
        }

    }

}
