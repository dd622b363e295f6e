/**
 * HTTP's rules for what a shared cache may store and for how long: pure rules, no I/O.
 */
@NullMarked
package dev.cachegateway.gateway.cache.policy;

import org.jspecify.annotations.NullMarked;
