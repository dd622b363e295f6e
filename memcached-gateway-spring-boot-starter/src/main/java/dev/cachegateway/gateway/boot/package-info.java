/**
 * The starter's auto-configuration: what any Spring Cloud Gateway with this dependency
 * gets.
 */
@NullMarked
package dev.cachegateway.gateway.boot;

import org.jspecify.annotations.NullMarked;
