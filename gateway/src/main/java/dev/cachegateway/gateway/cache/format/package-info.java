/**
 * Item formats: how a memcached item becomes a response. {@code body} is nginx's: the item is the body.
 */
@NullMarked
package dev.cachegateway.gateway.cache.format;

import org.jspecify.annotations.NullMarked;
