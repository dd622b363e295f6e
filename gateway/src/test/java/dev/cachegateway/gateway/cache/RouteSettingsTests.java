package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;

import org.junit.jupiter.api.Test;

class RouteSettingsTests {

    @Test
    void refusesAGzipFlagAmongTheBitsThatHoldTheStaleWindows() {
        assertThatIllegalArgumentException()
            .isThrownBy(() -> RouteSettings.of(new MemcachedCacheGatewayFilterFactory.Config().setGzipFlag(1 << 16),
                    new MemcachedCacheProperties()))
            .withMessageContaining("65536");
    }

    @Test
    void takesTheRoutesStaleWindowsOverTheDefaults() {
        MemcachedCacheProperties defaults = new MemcachedCacheProperties();
        defaults.setStaleIfError(Duration.ofMinutes(5));

        RouteSettings route = RouteSettings.of(new MemcachedCacheGatewayFilterFactory.Config().setGzipFlag(2)
            .setStaleWhileRevalidate(Duration.ofSeconds(30)), defaults);

        assertThat(route.stale().whileRevalidate()).isEqualTo(30);
        assertThat(route.stale().ifError()).isEqualTo(300);
    }

    @Test
    void asksMemcachedToNameAnEarlyRefresherOnlyWhenTheRouteWantsOne() {
        MemcachedCacheProperties defaults = new MemcachedCacheProperties();
        defaults.setStaleWhileRevalidate(Duration.ofSeconds(30));

        assertThat(RouteSettings.of(new MemcachedCacheGatewayFilterFactory.Config(), defaults).refreshAhead()).isZero();
        assertThat(RouteSettings
            .of(new MemcachedCacheGatewayFilterFactory.Config().setEarlyRefresh(Duration.ofSeconds(5)), defaults)
            .refreshAhead()).isEqualTo(35);
    }

}
