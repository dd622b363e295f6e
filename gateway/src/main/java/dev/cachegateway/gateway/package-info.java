@NullMarked
package dev.cachegateway.gateway;

import org.jspecify.annotations.NullMarked;
