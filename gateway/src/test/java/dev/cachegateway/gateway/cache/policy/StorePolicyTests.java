package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Set;

import dev.cachegateway.gateway.cache.policy.StoreDecision.Skip;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;

class StorePolicyTests {

    static final long NOW = Instant.parse("2026-11-29T12:00:00Z").toEpochMilli();

    private final StorePolicy policy = new StorePolicy(List.of(200), Duration.ofSeconds(60), Duration.ofHours(1),
            MediaType.APPLICATION_JSON, 2, 1024, Set.of("accept-language"), StaleWindows.NONE);

    private final StorePolicy noDefault = new StorePolicy(List.of(200), Duration.ZERO, Duration.ofHours(1),
            MediaType.APPLICATION_JSON, 2, 1024, Set.of(), StaleWindows.NONE);

    @ParameterizedTest(name = "Cache-Control: {0} -> stored for {1} s")
    @CsvSource(delimiter = '|', textBlock = """
            public, max-age=30                  | 30
            max-age=30, s-maxage=90             | 90
            s-maxage=90                         | 90
            max-age=7200                        | 3600
            public                              | 60
            must-revalidate, max-age=5          | 5
            """)
    void takesTheLifetimeFromSMaxAgeThenMaxAgeThenTheDefaultCappedByTheMaximum(String cacheControl, int ttl) {
        assertThat(decide(json().cacheControl(cacheControl))).isEqualTo(StoreDecision.store(ttl, 0));
    }

    @ParameterizedTest(name = "Cache-Control: {0} -> not stored")
    @CsvSource(delimiter = '|', textBlock = """
            no-store                            | CACHE_CONTROL
            private                             | CACHE_CONTROL
            no-cache                            | CACHE_CONTROL
            'public, max-age=60, no-store'      | CACHE_CONTROL
            'private="Set-Cookie", max-age=60'  | CACHE_CONTROL
            max-age=0                           | EXPIRED
            s-maxage=0, max-age=60              | EXPIRED
            """)
    void storesNothingThatCacheControlForbidsOrThatIsAlreadyStale(String cacheControl, Skip reason) {
        assertThat(decide(json().cacheControl(cacheControl)).skipped()).isEqualTo(reason);
    }

    @Test
    void takesTheLifetimeFromExpiresWhenThereIsNoMaxAge() {
        Headers headers = json().date(NOW).expires(NOW + 45_000);

        assertThat(decide(headers)).isEqualTo(StoreDecision.store(45, 0));
    }

    @Test
    void treatsAnExpiresInThePastOrInvalidAsStale() {
        assertThat(decide(json().date(NOW).expires(NOW - 1_000)).skipped()).isEqualTo(Skip.EXPIRED);
        assertThat(decide(json().header(HttpHeaders.EXPIRES, "0")).skipped()).isEqualTo(Skip.EXPIRED);
    }

    @Test
    void storesNothingWithoutExplicitFreshnessWhenTheRouteHasNoDefault() {
        assertThat(
                noDefault.decide(HttpMethod.GET, HttpStatus.OK, json().cacheControl("public").headers, NOW).skipped())
            .isEqualTo(Skip.NO_FRESHNESS);
        assertThat(noDefault.decide(HttpMethod.GET, HttpStatus.OK, json().cacheControl("max-age=5").headers, NOW))
            .isEqualTo(StoreDecision.store(5, 0));
    }

    @ParameterizedTest(name = "Cache-Control: {0} -> no max-age")
    @CsvSource(delimiter = '|', textBlock = """
            max-age = 3600
            max-age =3600
            max-age= 3600
            max-age=3600a
            max-age=1h
            """)
    void ignoresAnInvalidMaxAgeAndFallsBackToTheDefault(String cacheControl) {
        assertThat(decide(json().cacheControl(cacheControl))).isEqualTo(StoreDecision.store(60, 0));
        assertThat(noDefault.decide(HttpMethod.GET, HttpStatus.OK, json().cacheControl(cacheControl).headers, NOW)
            .skipped()).isEqualTo(Skip.NO_FRESHNESS);
    }

    @Test
    void neverThrowsOnAnInvalidDateAndTakesTheTimeOfReceiptInstead() {
        Headers headers = json().header(HttpHeaders.DATE, "foo")
            .header(HttpHeaders.EXPIRES, "Sun, 29 Nov 2026 12:00:30 GMT");

        assertThat(decide(headers)).isEqualTo(StoreDecision.store(30, 0));
    }

    @ParameterizedTest(name = "Expires: {0}")
    @CsvSource(delimiter = '|', textBlock = """
            Sun, 29 Nov 2026 13:00:00 GMT        | 3600
            Sunday, 29-Nov-26 13:00:00 GMT       | 3600
            Sun Nov 29 13:00:00 2026             | 3600
            SUN, 29 nov 2026 13:00:00 gmt        | 3600
            Sun, 29 Nov 2026 3:00:00 GMT         | 0
            Sun, 29 Nov 2026 13:00:00 UTC        | 0
            Sun, 29 Nov 26 13:00:00 GMT          | 0
            Sun 29 Nov 2026 13:00:00 GMT         | 0
            Sun, 29-Nov-2026 13:00:00 GMT        | 0
            Sun, 29 Nov 2026 13.00.00 GMT        | 0
            Sun, 31 Nov 2026 13:00:00 GMT        | 0
            Sun, 29 Xyz 2026 13:00:00 GMT        | 0
            Sun, 29 Nov 2026 13:0x:00 GMT        | 0
            Sun, 29 Nov 2026 13:00:00 GMTx       | 0
            foo                                  | 0
            """)
    void understandsTheThreeHttpDateFormatsAndTakesAnythingElseAsExpired(String expires, int ttl) {
        StoreDecision decision = decide(
                json().header(HttpHeaders.DATE, "Sun, 29 Nov 2026 12:00:00 GMT").header(HttpHeaders.EXPIRES, expires));

        assertThat(decision).isEqualTo(ttl > 0 ? StoreDecision.store(ttl, 0) : StoreDecision.skip(Skip.EXPIRED));
    }

    @Test
    void takesTwoExpiresLinesAsExpired() {
        Headers headers = json().header(HttpHeaders.EXPIRES, "Sun, 29 Nov 2026 13:00:00 GMT")
            .header(HttpHeaders.EXPIRES, "Sun, 29 Nov 2026 13:00:01 GMT");

        assertThat(decide(headers).skipped()).isEqualTo(Skip.EXPIRED);
    }

    @Test
    void neverThrowsOnAContentLengthThatIsNotANumber() {
        assertThat(decide(json().header(HttpHeaders.CONTENT_LENGTH, "lots")).stores()).isTrue();
    }

    @Test
    void subtractsTheAgeAnUpstreamCacheReports() {
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "50"))).isEqualTo(StoreDecision.store(10, 0));
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "60")).skipped()).isEqualTo(Skip.EXPIRED);
    }

    @Test
    void readsAnAgeListByItsFirstMemberAndIgnoresAnInvalidAge() {
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "60, 0")).skipped()).isEqualTo(Skip.EXPIRED);
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "0, 60")).ttlSeconds()).isEqualTo(60);
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "-7")).ttlSeconds()).isEqualTo(60);
        assertThat(decide(json().cacheControl("max-age=60").header("Age", "7.0")).ttlSeconds()).isEqualTo(60);
    }

    @Test
    void storesOnlyAnswersToGet() {
        assertThat(policy.decide(HttpMethod.HEAD, HttpStatus.OK, json().headers, NOW).skipped()).isEqualTo(Skip.METHOD);
    }

    @ParameterizedTest
    @CsvSource({ "201", "204", "302", "304", "404", "500", "503" })
    void storesOnlyTheConfiguredStatuses(int status) {
        assertThat(policy.decide(HttpMethod.GET, HttpStatus.valueOf(status), json().headers, NOW).skipped())
            .isEqualTo(Skip.STATUS);
    }

    @Test
    void neverStoresAnAnswerThatSetsACookieOrVariesOnEverything() {
        assertThat(decide(json().header(HttpHeaders.SET_COOKIE, "session=1")).skipped()).isEqualTo(Skip.SET_COOKIE);
        assertThat(decide(json().header(HttpHeaders.VARY, "*")).skipped()).isEqualTo(Skip.VARY);
        assertThat(decide(json().header(HttpHeaders.VARY, "Accept-Language, *")).skipped()).isEqualTo(Skip.VARY);
    }

    @ParameterizedTest(name = "Vary: {0} -> stored: {1}")
    @CsvSource(delimiter = '|', textBlock = """
            Accept-Encoding                  | true
            accept-language                  | true
            'Accept-Encoding, ACCEPT-Language' | true
            Foo                              | false
            'Accept-Language, Foo'           | false
            """)
    void storesAVaryingAnswerOnlyWhenTheKeyIncludesEveryHeaderItNames(String vary, boolean stored) {
        assertThat(decide(json().header(HttpHeaders.VARY, vary)).stores()).isEqualTo(stored);
        assertThat(noDefault
            .decide(HttpMethod.GET, HttpStatus.OK,
                    json().cacheControl("max-age=60").header(HttpHeaders.VARY, vary).headers, NOW)
            .stores()).isEqualTo(vary.equals("Accept-Encoding"));
    }

    @Test
    void storesOnlyTheRoutesContentType() {
        assertThat(decide(typed("application/json;charset=UTF-8")).stores()).isTrue();
        assertThat(decide(typed("text/html")).skipped()).isEqualTo(Skip.CONTENT_TYPE);
        assertThat(decide(typed("not a type")).skipped()).isEqualTo(Skip.CONTENT_TYPE);
        assertThat(decide(new Headers()).skipped()).isEqualTo(Skip.CONTENT_TYPE);
    }

    @Test
    void storesGzipWithTheGzipFlagAndNoOtherCoding() {
        assertThat(decide(json().header(HttpHeaders.CONTENT_ENCODING, "gzip"))).isEqualTo(StoreDecision.store(60, 2));
        assertThat(decide(json().header(HttpHeaders.CONTENT_ENCODING, "identity")))
            .isEqualTo(StoreDecision.store(60, 0));
        assertThat(decide(json().header(HttpHeaders.CONTENT_ENCODING, "br")).skipped())
            .isEqualTo(Skip.CONTENT_ENCODING);

        StorePolicy noGzipFlag = new StorePolicy(List.of(200), Duration.ofSeconds(60), Duration.ofHours(1),
                MediaType.APPLICATION_JSON, 0, 1024, Set.of(), StaleWindows.NONE);
        assertThat(noGzipFlag
            .decide(HttpMethod.GET, HttpStatus.OK, json().header(HttpHeaders.CONTENT_ENCODING, "gzip").headers, NOW)
            .skipped()).isEqualTo(Skip.CONTENT_ENCODING);
    }

    @Test
    void skipsABodyThatDeclaresMoreThanTheMaximumItemSize() {
        assertThat(decide(json().header(HttpHeaders.CONTENT_LENGTH, "1024")).stores()).isTrue();
        assertThat(decide(json().header(HttpHeaders.CONTENT_LENGTH, "1025")).skipped()).isEqualTo(Skip.TOO_LARGE);
    }

    @Test
    void capsEveryLifetimeAtMemcachedsThirtyDays() {
        StorePolicy generous = new StorePolicy(List.of(200), Duration.ofDays(365), Duration.ofDays(365),
                MediaType.APPLICATION_JSON, 0, 1024, Set.of(), StaleWindows.NONE);

        assertThat(generous.decide(HttpMethod.GET, HttpStatus.OK, json().headers, NOW).ttlSeconds())
            .isEqualTo(30 * 24 * 3600);
    }

    private StoreDecision decide(Headers headers) {
        return policy.decide(HttpMethod.GET, HttpStatus.OK, headers.headers, NOW);
    }

    private static Headers json() {
        return typed("application/json");
    }

    private static Headers typed(String contentType) {
        return new Headers().header(HttpHeaders.CONTENT_TYPE, contentType);
    }

    private static final class Headers {

        final HttpHeaders headers = new HttpHeaders();

        Headers header(String name, String value) {
            headers.add(name, value);
            return this;
        }

        Headers cacheControl(String value) {
            return header(HttpHeaders.CACHE_CONTROL, value);
        }

        Headers date(long millis) {
            headers.setDate(millis);
            return this;
        }

        Headers expires(long millis) {
            headers.setExpires(millis);
            return this;
        }

    }

    @Test
    void keepsAnAnswerForItsFreshnessPlusItsLongerStaleWindowWithTheWindowsInItsFlags() {
        StoreDecision decision = decide(
                json().cacheControl("max-age=60, stale-while-revalidate=30, stale-if-error=96"));

        assertThat(decision.ttlSeconds()).isEqualTo(60 + 96);
        assertThat(StaleFlags.decode(decision.flags())).isEqualTo(new StaleWindows(30, 96));
    }

    @Test
    void takesTheRoutesWindowsForAnAnswerThatNamesNone() {
        StorePolicy stale = new StorePolicy(List.of(200), Duration.ZERO, Duration.ofHours(1),
                MediaType.APPLICATION_JSON, 2, 1024, Set.of(), new StaleWindows(10, 20));

        StoreDecision decision = stale.decide(HttpMethod.GET, HttpStatus.OK, json().cacheControl("max-age=60").headers,
                NOW);

        assertThat(decision.ttlSeconds()).isEqualTo(80);
        assertThat(StaleFlags.decode(decision.flags())).isEqualTo(new StaleWindows(10, 20));
    }

    @ParameterizedTest(name = "{0} forbids stale answers")
    @CsvSource(delimiter = '|', textBlock = """
            max-age=60, must-revalidate, stale-if-error=90
            max-age=60, proxy-revalidate, stale-while-revalidate=30
            s-maxage=60, stale-while-revalidate=30, stale-if-error=90
            """)
    void keepsNoStaleWindowWhenTheAnswerMustBeRevalidated(String cacheControl) {
        StoreDecision decision = decide(json().cacheControl(cacheControl));

        assertThat(decision.ttlSeconds()).isEqualTo(60);
        assertThat(decision.flags() & StaleFlags.MASK).isZero();
    }

    @Test
    void capsTheWholeLifeFreshnessAndWindowsTogetherAtMaxTtl() {
        StoreDecision decision = decide(json().cacheControl("max-age=3000, stale-if-error=86400"));

        // 600 s are left under the hour; the flags say 576 of them, so the item lives
        // just that long.
        assertThat(StaleFlags.decode(decision.flags()).ifError()).isEqualTo(576);
        assertThat(decision.ttlSeconds()).isEqualTo(3000 + 576);
    }

    @Test
    void keepsTheGzipFlagBesideTheWindows() {
        StoreDecision decision = decide(
                json().cacheControl("max-age=60, stale-if-error=96").header(HttpHeaders.CONTENT_ENCODING, "gzip"));

        assertThat(decision.flags() & 0xFFFF).isEqualTo(2);
        assertThat(StaleFlags.decode(decision.flags()).ifError()).isEqualTo(96);
    }

}
