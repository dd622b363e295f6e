@NullMarked
package dev.cachegateway.gateway.memcached;

import org.jspecify.annotations.NullMarked;
