/**
 * Where a key lives in a pool: the hash ring, built as libmemcached or nginx builds it.
 */
@NullMarked
package dev.cachegateway.memcached.ring;

import org.jspecify.annotations.NullMarked;
