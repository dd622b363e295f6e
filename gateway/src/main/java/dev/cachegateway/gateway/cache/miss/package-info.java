@NullMarked
package dev.cachegateway.gateway.cache.miss;

import org.jspecify.annotations.NullMarked;
