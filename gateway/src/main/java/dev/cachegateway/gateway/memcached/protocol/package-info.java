@NullMarked
package dev.cachegateway.gateway.memcached.protocol;

import org.jspecify.annotations.NullMarked;
