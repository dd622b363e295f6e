/**
 * Checks of the gateway's settings at startup, so that a misspelt one is an error rather
 * than a default.
 */
@NullMarked
package dev.cachegateway.gateway.settings;

import org.jspecify.annotations.NullMarked;
