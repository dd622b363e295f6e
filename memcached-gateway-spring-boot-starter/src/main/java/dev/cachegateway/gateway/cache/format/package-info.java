/**
 * Item formats: how a memcached item holds an answer. {@code body} is nginx's: the item
 * is the body. {@code http} is OpenResty srcache's: the item is the whole answer as an
 * HTTP/1.1 message, with its variants kept apart.
 */
@NullMarked
package dev.cachegateway.gateway.cache.format;

import org.jspecify.annotations.NullMarked;
