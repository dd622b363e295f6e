package dev.cachegateway.gateway.cache.tag;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.BDDMockito.given;
import static org.mockito.Mockito.mock;

import java.util.List;

import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import org.springframework.cloud.gateway.filter.GatewayFilter;
import org.springframework.cloud.gateway.filter.OrderedGatewayFilter;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.support.ServerWebExchangeUtils;
import org.springframework.http.HttpHeaders;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

class TagHeadersFilterTests {

    @Test
    void takesBothHeadersTagsOutOfTheAnswerForTheStore() {
        MockServerWebExchange exchange = exchangeOn(cacheFilter(true));

        HttpHeaders out = new TagHeadersFilter(new TagProperties()).filter(backendHeaders(), exchange);

        assertThat(out.containsHeader("Surrogate-Key")).isFalse();
        assertThat(out.containsHeader("Cache-Tag")).isFalse();
        assertThat(out.getFirst("Cache-Control")).isEqualTo("max-age=60");
        assertThat(TagHeadersFilter.tagsOf(exchange)).containsExactly("comments", "user-paul", "a", "b");
    }

    @Test
    void passesTheHeadersOnWhereASettingKeepsThem() {
        TagProperties properties = new TagProperties();
        properties.setKeepHeaders(true);
        MockServerWebExchange exchange = exchangeOn(cacheFilter(true));

        HttpHeaders out = new TagHeadersFilter(properties).filter(backendHeaders(), exchange);

        assertThat(out.getFirst("Surrogate-Key")).isEqualTo("comments  user-paul");
        assertThat(TagHeadersFilter.tagsOf(exchange)).containsExactly("comments", "user-paul", "a", "b");
    }

    @Test
    void takesTheHeadersOutButKeepsNoTagsOnARouteWithoutThem() {
        MockServerWebExchange exchange = exchangeOn(cacheFilter(false));

        HttpHeaders out = new TagHeadersFilter(new TagProperties()).filter(backendHeaders(), exchange);

        assertThat(out.containsHeader("Surrogate-Key")).isFalse();
        assertThat(TagHeadersFilter.tagsOf(exchange)).isEmpty();
    }

    @Test
    void leavesTheAnswersOfARouteWithoutTheCacheAlone() {
        MockServerWebExchange exchange = exchangeOn(null);

        HttpHeaders out = new TagHeadersFilter(new TagProperties()).filter(backendHeaders(), exchange);

        assertThat(out.getFirst("Surrogate-Key")).isEqualTo("comments  user-paul");
        assertThat(TagHeadersFilter.tagsOf(exchange)).isEmpty();
    }

    private static HttpHeaders backendHeaders() {
        HttpHeaders headers = new HttpHeaders();
        headers.set("Cache-Control", "max-age=60");
        headers.set("Surrogate-Key", "comments  user-paul");
        headers.set("Cache-Tag", "a,b, comments");
        return headers;
    }

    private static MemcachedCacheFilter cacheFilter(boolean takesTags) {
        MemcachedCacheFilter filter = mock(MemcachedCacheFilter.class);
        given(filter.takesTags()).willReturn(takesTags);
        return filter;
    }

    private static MockServerWebExchange exchangeOn(@Nullable GatewayFilter cache) {
        Route.AsyncBuilder route = Route.async().id("comments").uri("http://backend").predicate(exchange -> true);
        if (cache != null) {
            route.filter(new OrderedGatewayFilter(cache, 1));
        }
        MockServerWebExchange exchange = MockServerWebExchange.from(MockServerHttpRequest.get("/api/v1/comments/1"));
        exchange.getAttributes().put(ServerWebExchangeUtils.GATEWAY_ROUTE_ATTR, route.build());
        return exchange;
    }

}
