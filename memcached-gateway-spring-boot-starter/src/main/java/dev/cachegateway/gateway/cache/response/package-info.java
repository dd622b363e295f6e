/**
 * Writing a response held in memory (a hit, or a backend response shared by coalesced
 * misses), with its ETag and content-coding rules.
 */
@NullMarked
package dev.cachegateway.gateway.cache.response;

import org.jspecify.annotations.NullMarked;
