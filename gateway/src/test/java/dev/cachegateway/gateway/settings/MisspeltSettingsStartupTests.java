package dev.cachegateway.gateway.settings;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import dev.cachegateway.demo.GatewayApplication;
import org.junit.jupiter.api.Test;

import org.springframework.boot.SpringApplication;
import org.springframework.core.NestedExceptionUtils;

/**
 * The gateway as it starts: a misspelt setting stops it, with a message that names the
 * setting.
 */
class MisspeltSettingsStartupTests {

    private static final String[] ANY_PORTS = { "--server.port=0", "--management.server.port=0",
            "--memcached.servers=localhost:1" };

    @Test
    void aMisspeltRouteArgumentStopsStartupNamingItAndItsRoute() {
        Throwable failure = start("--spring.cloud.gateway.server.webflux.routes[0].id=cached",
                "--spring.cloud.gateway.server.webflux.routes[0].uri=http://localhost:1",
                "--spring.cloud.gateway.server.webflux.routes[0].predicates[0]=Path=/**",
                "--spring.cloud.gateway.server.webflux.routes[0].filters[0].name=MemcachedCache",
                "--spring.cloud.gateway.server.webflux.routes[0].filters[0].args.item-formt=http");

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'item-formt'")
            .hasMessageContaining("route 'cached'");
    }

    @Test
    void aMisspeltMemcachedPropertyStopsStartupNamingIt() {
        Throwable failure = start("--memcached.cache.key-tempalte=$uri");

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'memcached.cache.key-tempalte'");
    }

    @Test
    void aMisspeltOverloadPropertyStopsStartupNamingIt() {
        Throwable failure = start("--memcached.overload.max-concurent-requests=100");

        assertThat(NestedExceptionUtils.getMostSpecificCause(failure)).isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'memcached.overload.max-concurent-requests'");
    }

    // The check claims only memcached., which the starter owns; gateway.overload was its
    // root once, and an application may have settings of its own there.
    @Test
    void anApplicationsOwnSettingOutsideMemcachedIsLeftAlone() {
        assertThat(start("--gateway.overload.my-own-setting=100", "--gateway.request.tenant=a")).isNull();
    }

    private static Throwable start(String... settings) {
        String[] args = new String[ANY_PORTS.length + settings.length];
        System.arraycopy(ANY_PORTS, 0, args, 0, ANY_PORTS.length);
        System.arraycopy(settings, 0, args, ANY_PORTS.length, settings.length);
        return catchThrowable(() -> SpringApplication.run(GatewayApplication.class, args).close());
    }

}
