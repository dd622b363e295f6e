@NullMarked
package dev.cachegateway.gateway.digest;

import org.jspecify.annotations.NullMarked;
