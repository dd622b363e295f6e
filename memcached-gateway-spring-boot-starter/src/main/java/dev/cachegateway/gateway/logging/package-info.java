/**
 * Logging that stays readable when the same failure repeats on every request.
 */
@NullMarked
package dev.cachegateway.gateway.logging;

import org.jspecify.annotations.NullMarked;
