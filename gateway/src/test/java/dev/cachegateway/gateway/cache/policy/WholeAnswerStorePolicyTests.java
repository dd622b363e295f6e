package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatusCode;

/** The store rules of an {@code http} route, whose items keep the answer's headers. */
class WholeAnswerStorePolicyTests {

    private static final long NOW = 1_800_000_000_000L;

    private final StorePolicy policy = StorePolicy.forWholeAnswers(List.of(200, 301, 404), Duration.ZERO,
            Duration.ofDays(1), 1024, StaleWindows.NONE, Duration.ofMinutes(10));

    private static HttpHeaders headers(String cacheControl) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, cacheControl);
        headers.set(HttpHeaders.CONTENT_TYPE, "text/html");
        return headers;
    }

    private StoreDecision decide(int status, HttpHeaders headers) {
        return policy.decide(HttpMethod.GET, HttpStatusCode.valueOf(status), headers, NOW);
    }

    @Test
    void storesAnyTypeAnyCodingAndTheConfiguredStatuses() {
        HttpHeaders gzip = headers("max-age=60");
        gzip.set(HttpHeaders.CONTENT_ENCODING, "br");

        assertThat(decide(200, gzip).ttlSeconds()).isEqualTo(60);
        assertThat(decide(404, headers("max-age=60")).stores()).isTrue();
        assertThat(decide(301, headers("max-age=60")).flags()).isZero();
        assertThat(decide(302, headers("max-age=60")).skipped()).isEqualTo(Skip.STATUS);
    }

    @Test
    void storesAnAnswerThatVariesOrSetsACookieButNotOneThatVariesOnEverything() {
        HttpHeaders varies = headers("max-age=60");
        varies.set(HttpHeaders.VARY, "Accept-Language");
        HttpHeaders cookie = headers("max-age=60");
        cookie.set(HttpHeaders.SET_COOKIE, "a=b");
        HttpHeaders everything = headers("max-age=60");
        everything.set(HttpHeaders.VARY, "*");

        assertThat(decide(200, varies).stores()).isTrue();
        assertThat(decide(200, cookie).stores()).isTrue();
        assertThat(decide(200, everything).skipped()).isEqualTo(Skip.VARY);
    }

    @Test
    void keepsAnAnswerWithAValidatorPastItsFreshnessToRevalidateIt() {
        HttpHeaders tagged = headers("max-age=60");
        tagged.setETag("\"v1\"");
        HttpHeaders dated = headers("max-age=0");
        dated.set(HttpHeaders.LAST_MODIFIED, "Tue, 01 Dec 2026 00:00:00 GMT");

        assertThat(decide(200, tagged).ttlSeconds()).isEqualTo(60 + 600);
        assertThat(decide(200, dated).ttlSeconds()).isEqualTo(600);
        assertThat(decide(200, headers("max-age=0")).skipped()).isEqualTo(Skip.EXPIRED);
        assertThat(decide(200, headers("max-age=60")).ttlSeconds()).isEqualTo(60);
    }

    @Test
    void stillStoresNothingThatCacheControlForbids() {
        HttpHeaders tagged = headers("no-cache, max-age=60");
        tagged.setETag("\"v1\"");

        assertThat(decide(200, tagged).skipped()).isEqualTo(Skip.CACHE_CONTROL);
        assertThat(decide(200, headers("private, max-age=60")).skipped()).isEqualTo(Skip.CACHE_CONTROL);
    }

}
