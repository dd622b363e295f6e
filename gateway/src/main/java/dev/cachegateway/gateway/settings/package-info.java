@NullMarked
package dev.cachegateway.gateway.settings;

import org.jspecify.annotations.NullMarked;
