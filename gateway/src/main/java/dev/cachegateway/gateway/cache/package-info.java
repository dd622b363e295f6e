@NullMarked
package dev.cachegateway.gateway.cache;

import org.jspecify.annotations.NullMarked;
