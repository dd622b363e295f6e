/**
 * The pool of servers: one spymemcached client at a time, a breaker per server, and the servers' addresses
 * followed as they move.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.pool;

import org.jspecify.annotations.NullMarked;
