/**
 * Cache keys as nginx derives them ({@code $uri}, {@code $args}, {@code $http_<name>}):
 * pure rules, no I/O.
 */
@NullMarked
package dev.cachegateway.gateway.cache.key;

import org.jspecify.annotations.NullMarked;
