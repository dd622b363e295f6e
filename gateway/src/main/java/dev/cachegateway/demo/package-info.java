/**
 * A Spring Cloud Gateway that answers from memcached and falls back to the backend, as
 * nginx's {@code memcached_pass} does.
 */
@NullMarked
package dev.cachegateway.demo;

import org.jspecify.annotations.NullMarked;
