/**
 * The starter's auto-configuration: what any Spring Cloud Gateway with this dependency
 * gets.
 */
@NullMarked
package dev.cachegateway.boot;

import org.jspecify.annotations.NullMarked;
