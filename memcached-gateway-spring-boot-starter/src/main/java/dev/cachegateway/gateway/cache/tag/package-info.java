/**
 * Purge by tag: the tags a backend gives an answer ({@code Surrogate-Key},
 * {@code Cache-Tag}), a generation per tag in memcached that a purge moves, the
 * generations each item was stored under, and each replica's knowledge of the current
 * ones.
 */
@NullMarked
package dev.cachegateway.gateway.cache.tag;

import org.jspecify.annotations.NullMarked;
