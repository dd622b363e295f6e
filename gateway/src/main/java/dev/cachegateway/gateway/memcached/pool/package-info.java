@NullMarked
package dev.cachegateway.gateway.memcached.pool;

import org.jspecify.annotations.NullMarked;
