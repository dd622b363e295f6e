@NullMarked
package dev.cachegateway.gateway.cache.hit;

import org.jspecify.annotations.NullMarked;
