/**
 * Where a key lives in a pool: the hash ring, built as libmemcached or nginx builds it.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.ring;

import org.jspecify.annotations.NullMarked;
