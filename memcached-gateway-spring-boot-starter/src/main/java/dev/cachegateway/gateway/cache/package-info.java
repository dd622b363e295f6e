/**
 * The {@code MemcachedCache} route filter's entry points: the filter factory and the
 * filter, their settings and defaults, the configuration that declares the parts every
 * route shares, and the invalidation endpoint.
 */
@NullMarked
package dev.cachegateway.gateway.cache;

import org.jspecify.annotations.NullMarked;
