@NullMarked
package dev.cachegateway.gateway.cache.policy;

import org.jspecify.annotations.NullMarked;
