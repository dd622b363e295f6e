/**
 * What the cache did for a request, said once in {@code X-Cache}, in RFC 9211
 * {@code Cache-Status} and in the meters.
 */
@NullMarked
package dev.cachegateway.gateway.cache.outcome;

import org.jspecify.annotations.NullMarked;
