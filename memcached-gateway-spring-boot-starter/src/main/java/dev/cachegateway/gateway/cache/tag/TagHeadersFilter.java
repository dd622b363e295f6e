package dev.cachegateway.gateway.cache.tag;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Takes the tags out of a backend's answer on a cached route as its headers arrive: the
 * names go to the exchange ({@link #tagsOf}), for the store, where the route keeps tags,
 * and the headers leave the answer unless a setting keeps them. Other routes' answers
 * pass untouched.
 */
public final class TagHeadersFilter implements HttpHeadersFilter {

    private static final String ATTRIBUTE = TagHeadersFilter.class.getName() + ".tags";

    private final List<String> headerNames;

    private final boolean keep;

    public TagHeadersFilter(TagProperties properties) {
        this.headerNames = List.copyOf(properties.getHeaders());
        this.keep = properties.isKeepHeaders();
    }

    /** The tags the backend gave the answer to this exchange; none if it gave none. */
    public static List<String> tagsOf(ServerWebExchange exchange) {
        List<String> tags = exchange.getAttribute(ATTRIBUTE);
        return tags != null ? tags : List.of();
    }

    /**
     * Gives the exchange the tags of the stored answer it revalidates, unless the backend
     * names others.
     */
    public static void carry(ServerWebExchange exchange, List<String> tags) {
        if (!tags.isEmpty()) {
            exchange.getAttributes().putIfAbsent(ATTRIBUTE, tags);
        }
    }

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        Set<String> tags = new LinkedHashSet<>();
        for (String name : headerNames) {
            List<String> values = input.getValuesAsList(name);
            for (String value : values) {
                for (String tag : value.split("[\\s,]+")) {
                    if (!tag.isEmpty()) {
                        tags.add(tag);
                    }
                }
            }
        }
        MemcachedCacheFilter cached = tags.isEmpty() ? null : cacheOf(exchange);
        if (cached == null) {
            return input;
        }
        if (cached.takesTags()) {
            exchange.getAttributes().put(ATTRIBUTE, List.copyOf(tags));
        }
        if (keep) {
            return input;
        }
        HttpHeaders output = HttpHeaders.copyOf(input);
        headerNames.forEach(output::remove);
        return output;
    }

    @Override
    public boolean supports(Type type) {
        return type == Type.RESPONSE;
    }

    private static @Nullable MemcachedCacheFilter cacheOf(ServerWebExchange exchange) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route == null) {
            return null;
        }
        for (GatewayFilter filter : route.getFilters()) {
            GatewayFilter own = filter instanceof OrderedGatewayFilter ordered ? ordered.getDelegate() : filter;
            if (own instanceof MemcachedCacheFilter cache) {
                return cache;
            }
        }
        return null;
    }

}
