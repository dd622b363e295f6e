/**
 * How one operation runs: spymemcached's future bridged to a Mono, its deadline, its
 * completion thread and its timers.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.operation;

import org.jspecify.annotations.NullMarked;
