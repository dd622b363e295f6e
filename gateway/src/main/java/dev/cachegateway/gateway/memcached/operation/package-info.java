@NullMarked
package dev.cachegateway.gateway.memcached.operation;

import org.jspecify.annotations.NullMarked;
