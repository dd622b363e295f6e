package dev.cachegateway.gateway.cache;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.format.FormatName;
import dev.cachegateway.gateway.cache.format.HttpFormat;

import org.junit.jupiter.api.Test;

import org.springframework.http.MediaType;

class RouteSettingsTests {

    private static final BodyFormat BODY = new BodyFormat(MediaType.APPLICATION_JSON, 2);

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

        assertThat(RouteSettings.of(new MemcachedCacheGatewayFilterFactory.Config(), defaults).refreshAhead(BODY))
            .isZero();
        assertThat(RouteSettings
            .of(new MemcachedCacheGatewayFilterFactory.Config().setEarlyRefresh(Duration.ofSeconds(5)), defaults)
            .refreshAhead(BODY)).isEqualTo(35);
    }

    // A whole answer with a validator outlives its windows, so its TTL says nothing of
    // when to refresh it.
    @Test
    void neverAsksMemcachedToNameAnEarlyRefresherOfWholeAnswers() {
        MemcachedCacheProperties defaults = new MemcachedCacheProperties();
        defaults.setStaleWhileRevalidate(Duration.ofSeconds(30));

        assertThat(RouteSettings
            .of(new MemcachedCacheGatewayFilterFactory.Config().setEarlyRefresh(Duration.ofSeconds(5))
                .setItemFormat(FormatName.HTTP), defaults)
            .refreshAhead(new HttpFormat(List.of(), List.of()))).isZero();
    }

}
