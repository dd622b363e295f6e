package dev.cachegateway.gateway.backend;

import java.net.InetSocketAddress;
import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.server.RequestProperties;
import org.jspecify.annotations.Nullable;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.filter.headers.HttpHeadersFilter;
import org.springframework.cloud.gateway.filter.headers.TrustedProxies;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.web.server.ServerWebExchange;

/**
 * Keeps the backend of a cached route from hearing request headers that change what it
 * serves but are not in the key ({@code memcached.request.unkeyed-headers}): otherwise
 * one client's {@code X-Forwarded-Host: evil.example} shapes an answer that is stored
 * under a plain key and served to everyone. They are removed rather than made to bypass
 * the cache, so that a request carrying one is served and stored like any other and
 * cannot be used to dodge the cache either. A request from a trusted proxy
 * ({@code spring.cloud.gateway.server.webflux.trusted-proxies}, the same setting by which
 * the gateway believes its {@code X-Forwarded-*} headers) keeps them. The last headers
 * filter to run, so that it also sees what the gateway's own {@code X-Forwarded-*} filter
 * added from the request's {@code Host}.
 */
class UnkeyedHeadersFilter implements HttpHeadersFilter, Ordered {

    private final List<String> unkeyed;

    private final @Nullable TrustedProxies trusted;

    UnkeyedHeadersFilter(RequestProperties properties, String trustedProxies) {
        this.unkeyed = List.copyOf(properties.getUnkeyedHeaders());
        this.trusted = trustedProxies.isBlank() ? null : TrustedProxies.from(trustedProxies);
    }

    @Override
    public HttpHeaders filter(HttpHeaders input, ServerWebExchange exchange) {
        if (!isCached(exchange) || fromTrustedProxy(exchange) || unkeyed.stream().noneMatch(input::containsHeader)) {
            return input;
        }
        HttpHeaders output = new HttpHeaders();
        output.putAll(input);
        unkeyed.forEach(output::remove);
        return output;
    }

    private boolean fromTrustedProxy(ServerWebExchange exchange) {
        InetSocketAddress peer = exchange.getRequest().getRemoteAddress();
        return trusted != null && peer != null && trusted.isTrusted(peer.getHostString());
    }

    private static boolean isCached(ServerWebExchange exchange) {
        Route route = exchange.getAttribute(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR);
        if (route == null) {
            return false;
        }
        for (GatewayFilter filter : route.getFilters()) {
            GatewayFilter inner = filter instanceof OrderedGatewayFilter ordered ? ordered.getDelegate() : filter;
            if (inner instanceof MemcachedCacheFilter) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

}
