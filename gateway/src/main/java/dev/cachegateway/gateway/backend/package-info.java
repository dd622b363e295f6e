@NullMarked
package dev.cachegateway.gateway.backend;

import org.jspecify.annotations.NullMarked;
