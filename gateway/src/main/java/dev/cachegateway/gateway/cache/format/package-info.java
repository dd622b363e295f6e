@NullMarked
package dev.cachegateway.gateway.cache.format;

import org.jspecify.annotations.NullMarked;
