package dev.cachegateway.gateway.boot;

import dev.cachegateway.gateway.backend.BackendConfiguration;
import dev.cachegateway.gateway.backend.BackendProperties;
import dev.cachegateway.gateway.cache.DecodedItemsProperties;
import dev.cachegateway.gateway.cache.HttpItemProperties;
import dev.cachegateway.gateway.cache.MemcachedCacheConfiguration;
import dev.cachegateway.gateway.cache.trace.CacheSpansConfiguration;
import dev.cachegateway.gateway.cache.MemcachedCacheProperties;
import dev.cachegateway.gateway.cache.NearCacheProperties;
import dev.cachegateway.gateway.cache.early.FastHitConfiguration;
import dev.cachegateway.gateway.cache.early.FastHitProperties;
import dev.cachegateway.gateway.cache.purge.PurgeAccessProperties;
import dev.cachegateway.gateway.cache.tag.TagProperties;
import dev.cachegateway.gateway.memcached.MemcachedClientConfiguration;
import dev.cachegateway.gateway.memcached.MemcachedProperties;
import dev.cachegateway.gateway.overload.OverloadConfiguration;
import dev.cachegateway.gateway.overload.OverloadProperties;
import dev.cachegateway.gateway.sampling.HeadSamplingProperties;
import dev.cachegateway.gateway.server.RequestProperties;
import dev.cachegateway.gateway.server.ServerConfiguration;
import dev.cachegateway.gateway.settings.SettingsCheckConfiguration;
import dev.cachegateway.gateway.warmup.WarmUpConfiguration;
import dev.cachegateway.gateway.warmup.WarmUpProperties;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.cloud.gateway.config.GatewayAutoConfiguration;
import org.springframework.context.annotation.Import;

/**
 * The {@code MemcachedCache} route filter for any Spring Cloud Gateway (WebFlux) that has
 * this starter: memcached's client with its health and meters, the filter's shared parts,
 * the invalidation endpoint, the settings check, and the server's hardening around it.
 * Every bean gives way to one of the application's own of its type (or, for a general
 * type, of its name); {@code memcached.enabled=false} leaves all of it out.
 */
@AutoConfiguration(after = GatewayAutoConfiguration.class)
@ConditionalOnProperty(prefix = "memcached", name = "enabled", matchIfMissing = true)
@EnableConfigurationProperties({ MemcachedProperties.class, MemcachedCacheProperties.class, HttpItemProperties.class,
        NearCacheProperties.class, DecodedItemsProperties.class, RequestProperties.class, OverloadProperties.class,
        BackendProperties.class, WarmUpProperties.class, PurgeAccessProperties.class, TagProperties.class,
        FastHitProperties.class, HeadSamplingProperties.class })
@Import({ MemcachedClientConfiguration.class, MemcachedCacheConfiguration.class, CacheSpansConfiguration.class,
        BackendConfiguration.class, ServerConfiguration.class, OverloadConfiguration.class, WarmUpConfiguration.class,
        SettingsCheckConfiguration.class, FastHitConfiguration.class })
public class MemcachedGatewayAutoConfiguration {

}
