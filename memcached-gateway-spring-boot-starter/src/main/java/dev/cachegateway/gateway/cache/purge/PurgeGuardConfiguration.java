package dev.cachegateway.gateway.cache.purge;

import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.web.PathMappedEndpoints;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;

/**
 * The purge guard, in the context that serves the management port: there only, so that a
 * {@code DELETE} on the gateway's own port, which is routed to a backend, is never asked
 * for a token. With the management port the server's own, that context is the
 * application's, and the guard matches the endpoint's path only.
 */
@ManagementContextConfiguration(ManagementContextType.ANY)
@ConditionalOnBean(PurgeAccess.class)
public class PurgeGuardConfiguration {

    private static final Logger log = LoggerFactory.getLogger(PurgeGuardConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    PurgeGuardFilter purgeGuardFilter(PurgeAccess access, PathMappedEndpoints endpoints, MeterRegistry meters) {
        String path = endpoints.getPath(EndpointId.of("memcached"));
        if (path == null) {
            // Not exposed on the web: there is nothing to guard, and nothing matches.
            path = endpoints.getBasePath() + "/memcached";
        }
        log.info(access.describe(path));
        return new PurgeGuardFilter(access, path, meters);
    }

}
