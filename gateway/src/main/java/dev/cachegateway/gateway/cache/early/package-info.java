@NullMarked
package dev.cachegateway.gateway.cache.early;

import org.jspecify.annotations.NullMarked;
