package dev.cachegateway.gateway.warmup;

import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.gateway.cache.MemcachedCacheFilter;
import dev.cachegateway.gateway.cache.MemcachedCacheGatewayFilterFactory;
import dev.cachegateway.gateway.cache.early.SyncPredicates;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.cloud.gateway.route.Route;
import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.mock.http.server.reactive.MockServerHttpRequest;
import org.springframework.mock.web.server.MockServerWebExchange;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The configured routes (application.yml and the tests' own) as the warm-up takes them:
 * their own predicates, with the warm-up's token, ahead of them all, to the warm-up's
 * backend and through its own cache filter.
 */
class WarmUpMirrorsTests extends CacheIntegrationTest {

    private static final URI BACKEND = URI.create("http://127.0.0.1:9");

    private static final String TOKEN = "a token";

    @Autowired
    RouteLocator routeLocator;

    @Autowired
    MemcachedCacheGatewayFilterFactory cache;

    @Test
    void mirrorsEveryConfiguredRouteInItsOrderAheadOfThemAll() {
        List<Route> configured = configured();
        List<Route> mirrors = mirrors(configured);

        assertThat(mirrors).extracting(Route::getId)
            .containsExactlyElementsOf(
                    configured.stream().map(route -> WarmUpMirrors.ID_PREFIX + route.getId()).toList());
        assertThat(mirrors).extracting(Route::getUri).containsOnly(BACKEND);
        assertThat(mirrors).extracting(Route::getOrder)
            .isSorted()
            .doesNotHaveDuplicates()
            .allMatch(order -> order < configured.get(0).getOrder());
    }

    @Test
    void matchesWhatItsRouteMatchesAndOnlyWithTheToken() {
        List<Route> mirrors = mirrors(configured());

        assertThat(firstMatch(mirrors, "/api/v1/comments/1", TOKEN)).contains(WarmUpMirrors.ID_PREFIX + "comments");
        assertThat(firstMatch(mirrors, "/api/v1/comments/users/1/no_cache", TOKEN))
            .contains(WarmUpMirrors.ID_PREFIX + "comments-uncached");
        assertThat(firstMatch(mirrors, "/api/v1/comments/1", "another token")).isEmpty();
        // One plain predicate, as the configured route's is, for the early hit filter.
        assertThat(mirrors).allMatch(mirror -> SyncPredicates.of(mirror.getPredicate()).isPresent());
    }

    @Test
    void looksUpThroughTheWarmUpsCacheFilterInsteadOfTheRoutesFilters() {
        List<Route> mirrors = mirrors(configured());

        // comments: the cache filter alone, so that its hits are answered early.
        assertThat(mirror(mirrors, "comments").getFilters()).singleElement()
            .satisfies(filter -> assertThat(String.valueOf(MemcachedCacheFilter.of(filter)))
                .contains(WarmUpRoutes.MIRROR_KEYS));
        // comments-whole: no RewritePath, and a stand-in, so that its hits are routed.
        assertThat(mirror(mirrors, "comments-whole").getFilters()).hasSize(2)
            .first()
            .satisfies(filter -> assertThat(String.valueOf(MemcachedCacheFilter.of(filter)))
                .contains(WarmUpRoutes.MIRROR_KEYS));
        assertThat(mirror(mirrors, "comments-uncached").getFilters()).isEmpty();
    }

    @Test
    void mirrorsNoWarmUpRoute() {
        Route own = Route.async()
            .id(WarmUpRoutes.ID_PREFIX + WarmUpRoutes.HIT)
            .uri(BACKEND)
            .predicate(exchange -> true)
            .build();

        assertThat(WarmUpMirrors.of(List.of(own), BACKEND, exchange -> true, cache.apply(mirrorKeys()))).isEmpty();
    }

    private List<Route> configured() {
        return routeLocator.getRoutes().collectList().block(Duration.ofSeconds(5));
    }

    private List<Route> mirrors(List<Route> configured) {
        return WarmUpMirrors.of(configured, BACKEND,
                exchange -> TOKEN.equals(exchange.getRequest().getHeaders().getFirst(WarmUpRoutes.TOKEN_HEADER)),
                cache.apply(mirrorKeys()));
    }

    private static MemcachedCacheGatewayFilterFactory.Config mirrorKeys() {
        return new MemcachedCacheGatewayFilterFactory.Config().setKeyTemplate(WarmUpRoutes.MIRROR_KEYS);
    }

    private static Route mirror(List<Route> mirrors, String id) {
        return mirrors.stream()
            .filter(route -> route.getId().equals(WarmUpMirrors.ID_PREFIX + id))
            .findFirst()
            .orElseThrow();
    }

    // The id of the first mirror that takes this request, as the gateway tries routes.
    private static Optional<String> firstMatch(List<Route> mirrors, String path, String token) {
        for (Route mirror : mirrors) {
            MockServerWebExchange exchange = MockServerWebExchange
                .from(MockServerHttpRequest.get(path).header(WarmUpRoutes.TOKEN_HEADER, token));
            if (Boolean.TRUE.equals(Mono.from(mirror.getPredicate().apply(exchange)).block(Duration.ofSeconds(1)))) {
                return Optional.of(mirror.getId());
            }
        }
        return Optional.empty();
    }

}
