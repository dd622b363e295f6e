package dev.cachegateway.gateway.boot;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;

import dev.cachegateway.gateway.overload.OverloadProperties;
import dev.cachegateway.gateway.server.RequestProperties;
import dev.cachegateway.gateway.warmup.WarmUpProperties;
import org.junit.jupiter.api.Test;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.logging.DeferredLogs;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The properties that moved under memcached. are read by their earlier names too, and the
 * new names win.
 */
class LegacyPropertyNamesTests {

    private final StandardEnvironment environment = new StandardEnvironment();

    @Test
    void readsAPropertyByItsEarlierName() {
        given(Map.of("gateway.overload.max-concurrent-requests", "7", "gateway.warm-up.duration", "3s"));

        assertThat(overload().getMaxConcurrentRequests()).isEqualTo(7);
        assertThat(warmUp().getDuration()).isEqualTo(Duration.ofSeconds(3));
    }

    @Test
    void takesTheNewNameWhereBothAreSet() {
        given(Map.of("gateway.overload.max-concurrent-requests", "7", "memcached.overload.max-concurrent-requests",
                "9"));

        assertThat(overload().getMaxConcurrentRequests()).isEqualTo(9);
    }

    @Test
    void readsAnEnvironmentVariableByItsEarlierName() {
        environment.getPropertySources()
            .replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                    new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                            Map.of("GATEWAY_WARMUP_DURATION", "8s", "GATEWAY_WARMUP_READYWITHIN", "9s")));
        new LegacyPropertyNames(new DeferredLogs()).postProcessEnvironment(environment, null);

        assertThat(warmUp().getDuration()).isEqualTo(Duration.ofSeconds(8));
        assertThat(warmUp().getReadyWithin()).isEqualTo(Duration.ofSeconds(9));
    }

    @Test
    void readsAListByItsEarlierName() {
        given(Map.of("gateway.request.unkeyed-headers[0]", "X-Tenant", "gateway.request.unkeyed-headers[1]", "X-Host"));

        assertThat(
                Binder.get(environment).bindOrCreate("memcached.request", RequestProperties.class).getUnkeyedHeaders())
            .containsExactly("X-Tenant", "X-Host");
    }

    @Test
    void leavesEveryOtherNameUnderTheEarlierRootsAlone() {
        given(Map.of("gateway.overload.my-own-setting", "1", "gateway.request.tenant", "a"));

        assertThat(environment.containsProperty("memcached.overload.my-own-setting")).isFalse();
        assertThat(environment.containsProperty("memcached.request.tenant")).isFalse();
        assertThat(environment.getPropertySources().contains(LegacyPropertyNames.SOURCE_NAME)).isFalse();
    }

    private void given(Map<String, Object> properties) {
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        new LegacyPropertyNames(new DeferredLogs()).postProcessEnvironment(environment, null);
    }

    private OverloadProperties overload() {
        return Binder.get(environment).bindOrCreate("memcached.overload", OverloadProperties.class);
    }

    private WarmUpProperties warmUp() {
        return Binder.get(environment).bindOrCreate("memcached.warm-up", WarmUpProperties.class);
    }

}
