@NullMarked
package dev.cachegateway.gateway.server;

import org.jspecify.annotations.NullMarked;
