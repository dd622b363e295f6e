/**
 * memcached in the actuator's health.
 */
@NullMarked
package dev.cachegateway.gateway.memcached.health;

import org.jspecify.annotations.NullMarked;
