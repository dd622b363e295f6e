@NullMarked
package dev.cachegateway.gateway.memcached.ring;

import org.jspecify.annotations.NullMarked;
