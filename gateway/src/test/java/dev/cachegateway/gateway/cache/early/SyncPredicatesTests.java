package dev.cachegateway.gateway.cache.early;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.function.Predicate;

import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.cloud.gateway.handler.AsyncPredicate;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;
import org.springframework.web.server.ServerWebExchange;

/**
 * Route predicates read at once: plain ones and their and/or/negate joins, as the gateway
 * builds routes from configuration, and nothing that would have to be subscribed to.
 */
class SyncPredicatesTests {

    static final AsyncPredicate<ServerWebExchange> API = AsyncPredicate
        .from(exchange -> exchange.getRequest().getPath().value().startsWith("/api/"));

    static final AsyncPredicate<ServerWebExchange> NO_CACHE = AsyncPredicate
        .from(exchange -> exchange.getRequest().getPath().value().endsWith("/no_cache"));

    @Test
    void readsJoinedPlainPredicatesAsTheGatewayWould() {
        Predicate<ServerWebExchange> test = SyncPredicates.of(API.and(NO_CACHE.negate()).or(NO_CACHE.and(API)))
            .orElseThrow();

        assertThat(test).isNotNull();
        assertThat(test.test(get("/api/v1/comments/1"))).isTrue();
        assertThat(test.test(get("/api/v1/comments/1/no_cache"))).isTrue();
        assertThat(test.test(get("/other"))).isFalse();
    }

    @Test
    void leavesAPredicateThatAnswersLaterToTheGateway() {
        AsyncPredicate<ServerWebExchange> later = exchange -> Mono.delay(Duration.ofMillis(1)).thenReturn(true);

        assertThat(SyncPredicates.of(later)).isEmpty();
        assertThat(SyncPredicates.of(API.and(later))).isEmpty();
    }

    private static ServerWebExchange get(String path) {
        return MockServerWebExchange.from(MockServerHttpRequest.get(path));
    }

}
