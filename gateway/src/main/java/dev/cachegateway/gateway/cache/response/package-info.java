@NullMarked
package dev.cachegateway.gateway.cache.response;

import org.jspecify.annotations.NullMarked;
