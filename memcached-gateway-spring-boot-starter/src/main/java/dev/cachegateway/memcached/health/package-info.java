/**
 * memcached in the actuator's health.
 */
@NullMarked
package dev.cachegateway.memcached.health;

import org.jspecify.annotations.NullMarked;
