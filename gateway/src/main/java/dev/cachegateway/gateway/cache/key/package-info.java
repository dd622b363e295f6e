@NullMarked
package dev.cachegateway.gateway.cache.key;

import org.jspecify.annotations.NullMarked;
