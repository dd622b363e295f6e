@NullMarked
package dev.cachegateway.gateway.logging;

import org.jspecify.annotations.NullMarked;
