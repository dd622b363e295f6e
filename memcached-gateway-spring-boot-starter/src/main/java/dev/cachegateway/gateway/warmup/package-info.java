/**
 * A fresh gateway warms itself up before its readiness says UP: for a while it sends its
 * own stack hits, misses and pass-through requests, on routes of its own that lead to a
 * small backend of its own and to one reserved memcached key, so that the JIT compiler
 * has compiled the hot paths before the first real request comes.
 */
@NullMarked
package dev.cachegateway.gateway.warmup;

import org.jspecify.annotations.NullMarked;
