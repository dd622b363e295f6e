/**
 * The demo's backend: the Sinatra comments API of the original article, byte for byte.
 */
@NullMarked
package dev.cachegateway.comments;

import org.jspecify.annotations.NullMarked;
