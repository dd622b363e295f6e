/**
 * Who may purge: the memcached endpoint's deletes need a bearer token, or a setting that
 * opens them on purpose; each purge is logged once and counted.
 */
@NullMarked
package dev.cachegateway.gateway.cache.purge;

import org.jspecify.annotations.NullMarked;
