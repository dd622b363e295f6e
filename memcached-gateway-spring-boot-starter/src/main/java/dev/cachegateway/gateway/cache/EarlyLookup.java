package dev.cachegateway.gateway.cache;

import dev.cachegateway.gateway.cache.hit.Lookup;

import org.springframework.web.server.ServerWebExchange;

/**
 * A lookup made before routing, for the route filter that made it and the key it looked
 * up.
 *
 * @param startedAt when the lookup was sent, by {@link System#nanoTime()}
 */
public record EarlyLookup(MemcachedCacheFilter filter, String key, Lookup lookup, long startedAt) {

    static final String ATTRIBUTE = EarlyLookup.class.getName();

    /**
     * Leaves this lookup to the exchange's route, which answers from it rather than
     * looking up again: a lookup may have won a refresh, which a second one would not.
     */
    public void carryInto(ServerWebExchange exchange) {
        exchange.getAttributes().put(ATTRIBUTE, this);
    }

}
