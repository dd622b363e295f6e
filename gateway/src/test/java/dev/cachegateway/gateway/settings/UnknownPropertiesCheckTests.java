package dev.cachegateway.gateway.settings;

import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;

import dev.cachegateway.gateway.cache.MemcachedCacheProperties;
import dev.cachegateway.gateway.cache.NearCacheProperties;
import dev.cachegateway.gateway.cache.purge.PurgeAccessProperties;
import dev.cachegateway.gateway.memcached.MemcachedProperties;
import org.junit.jupiter.api.Test;

import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

class UnknownPropertiesCheckTests {

    private final UnknownPropertiesCheck check = new UnknownPropertiesCheck("memcached",
            List.of(Map.entry("memcached", new MemcachedProperties()),
                    Map.entry("memcached.cache", new MemcachedCacheProperties()),
                    Map.entry("memcached.cache", new PurgeAccessProperties()),
                    Map.entry("memcached.cache.near-cache", new NearCacheProperties())));

    @Test
    void takesEveryPropertyOfEveryGroupIncludingListElementsAndNestedGroups() {
        StandardEnvironment environment = environment(Map.of("memcached.servers[0]", "a:11211",
                "memcached.operation-timeout", "1s", "memcached.circuit-breaker.sliding-window-size", "20",
                "memcached.cache.key-template", "$uri", "memcached.cache.bypass-headers[1]", "Cookie",
                "memcached.cache.near-cache.ttl", "1s", "memcached.cache.nearCache.maxEntries", "5",
                // Bound by a second class under memcached.cache.
                "memcached.cache.purge-token", "t"));

        assertThatNoException().isThrownBy(() -> check.check(environment));
    }

    @Test
    void refusesAMisspeltPropertyNamingIt() {
        assertThatThrownBy(() -> check.check(environment(Map.of("memcached.operation-timout", "1s"))))
            .isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'memcached.operation-timout'")
            .hasMessageContaining("memcached.operation-timeout");
        assertThatThrownBy(() -> check.check(environment(Map.of("memcached.cache.near-cache.tll", "1s"))))
            .isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("'memcached.cache.near-cache.tll'");
    }

    @Test
    void refusesAMisspeltEnvironmentVariable() {
        StandardEnvironment environment = environment(Map.of());
        environment.getPropertySources()
            .addLast(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                    Map.of("MEMCACHED_SERVRES", "memcached:11211")));

        assertThatThrownBy(() -> check.check(environment)).isInstanceOf(UnknownSettingException.class)
            .hasMessageContaining("memcached.servres");
    }

    @Test
    void takesEnvironmentVariablesOfDashedNamesAndLetsKubernetesServiceLinksThrough() {
        StandardEnvironment environment = environment(Map.of());
        environment.getPropertySources()
            .addLast(new SystemEnvironmentPropertySource(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                    Map.of("MEMCACHED_SERVERS", "memcached:11211", "MEMCACHED_CACHE_STALE_IF_ERROR", "1h",
                            "MEMCACHED_CACHE_NEAR_CACHE_TTL", "1s", "MEMCACHED_SERVERS_1_", "b:11211", "MEMCACHED_PORT",
                            "tcp://10.0.0.1:11211", "MEMCACHED_PORT_11211_TCP_ADDR", "10.0.0.1",
                            "MEMCACHED_SERVICE_HOST", "10.0.0.1", "MEMCACHED_SERVICE_PORT_MEMCACHED", "11211")));

        assertThatNoException().isThrownBy(() -> check.check(environment));
    }

    private static StandardEnvironment environment(Map<String, Object> properties) {
        StandardEnvironment environment = new StandardEnvironment();
        environment.getPropertySources().remove(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME);
        environment.getPropertySources().addFirst(new MapPropertySource("test", properties));
        return environment;
    }

}
