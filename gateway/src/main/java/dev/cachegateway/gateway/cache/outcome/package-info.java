@NullMarked
package dev.cachegateway.gateway.cache.outcome;

import org.jspecify.annotations.NullMarked;
