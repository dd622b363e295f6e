/**
 * The pool of servers: one spymemcached client at a time, a breaker per server, the
 * servers' addresses followed as they move, and the version each server reports on each
 * connection, which says whether it takes meta commands.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.pool;

import org.jspecify.annotations.NullMarked;
