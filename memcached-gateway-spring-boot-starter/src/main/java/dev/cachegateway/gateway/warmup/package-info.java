/**
 * A fresh gateway warms itself up before its readiness says UP: for a while it sends its
 * own stack hits, misses and pass-through requests, on routes of its own and on mirrors
 * of the configured routes, that lead to a small backend of its own and to memcached keys
 * under a reserved prefix, so that the JIT compiler has compiled the paths real requests
 * take before the first one comes.
 */
@NullMarked
package dev.cachegateway.gateway.warmup;

import org.jspecify.annotations.NullMarked;
