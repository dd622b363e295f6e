package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.OptionalLong;

import dev.cachegateway.gateway.cache.format.ItemFormat.HitAnswer;
import dev.cachegateway.gateway.cache.policy.ItemAge;
import dev.cachegateway.gateway.cache.policy.ItemAge.Staleness;
import dev.cachegateway.gateway.cache.response.CapturedResponse;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.memcached.CachedItem;
import dev.cachegateway.gateway.memcached.MetaItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

class HttpFormatTests {

    private static final long NOW = 1_800_000_000_000L;

    private static final byte[] BODY = "{}".getBytes(StandardCharsets.UTF_8);

    private final HttpFormat format = new HttpFormat(List.of("X-Internal"), List.of());

    private static CapturedResponse answer(HttpHeaders headers) {
        return new CapturedResponse(HttpStatus.OK, headers, BODY);
    }

    private static String stored(HttpFormat format, HttpHeaders headers) {
        return new String(format.encode(answer(headers), 0, NOW).value(), StandardCharsets.ISO_8859_1);
    }

    @Test
    void leavesOutWhatSrcacheHidesWhatTheRouteHidesAndWhatConnectionNames() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Content-Type", "application/json");
        headers.add("Set-Cookie", "a=b");
        headers.add("Transfer-Encoding", "chunked");
        headers.add("Connection", "X-Hop");
        headers.add("X-Hop", "1");
        headers.add("X-Internal", "2");
        headers.add("Content-Length", "2");
        headers.add("X-Kept", "3");

        assertThat(stored(format, headers)).contains("Content-Type: application/json\r\n", "X-Kept: 3\r\n")
            .doesNotContain("Set-Cookie", "Transfer-Encoding", "Connection", "X-Hop", "X-Internal", "Content-Length");
    }

    @Test
    void keepsASetCookieTheRoutePasses() {
        HttpHeaders headers = new HttpHeaders();
        headers.add("Set-Cookie", "a=b");

        assertThat(stored(new HttpFormat(List.of(), List.of("set-cookie")), headers)).contains("Set-Cookie: a=b\r\n");
    }

    @Test
    void addsADateButNotTheGatewaysOwnEtag() {
        HttpHeaders ours = new HttpHeaders();
        ours.setETag(EntityTags.of(BODY));
        HttpHeaders theirs = new HttpHeaders();
        theirs.setETag("\"v1\"");
        theirs.setDate(NOW - 5000);

        assertThat(stored(format, ours)).doesNotContain("ETag").contains("Date: ");
        assertThat(stored(format, theirs)).contains("ETag: \"v1\"\r\n").containsOnlyOnce("Date: ");
    }

    @Test
    void answersAHitWithAnAgeADateAndAnEtagOfTheBody() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, "max-age=100");
        headers.set(Variants.HEADER, "digest epoch");

        // As srcache stores it: without a Date, so aged from memcached's remaining TTL.
        CachedItem item = new CachedItem(HttpMessage.encode(HttpStatus.OK, headers, BODY), 0);
        HitAnswer hit = format.answer(format.decode(item).orElseThrow(), 0, 70, NOW);

        assertThat(hit.response().headers().getFirst(HttpHeaders.AGE)).isEqualTo("30");
        assertThat(hit.response().headers().getDate()).isEqualTo(NOW);
        assertThat(hit.response().headers().getETag()).isEqualTo(EntityTags.of(BODY));
        assertThat(hit.response().headers().containsHeader(Variants.HEADER)).isFalse();
        assertThat(hit.age().fresh()).isTrue();
    }

    // RFC 9111 4.2.3: stored at the time of its receipt, an answer is as old as the
    // larger of its Age and the time since its Date, not their sum; then it ages with the
    // time it is held. With max-age=130 it is fresh when stored and stale 50 s later.
    @ParameterizedTest(name = "Date {0} s old, Age {1}: {2} s old when stored")
    @CsvSource(nullValues = "none", textBlock = """
            none, 100,  100
            100,  none, 100
            100,  100,  100
            10,   100,  100
            100,  10,   100
            """)
    void agesAStoredAnswerByTheLargerOfItsAgeAndTheTimeSinceItsDate(Long dateSecondsOld, String age, long stored) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, "max-age=130");
        if (dateSecondsOld != null) {
            headers.setDate(NOW - dateSecondsOld * 1000);
        }
        if (age != null) {
            headers.set(HttpHeaders.AGE, age);
        }
        DecodedItem item = format.decode(format.encode(answer(headers), 0, NOW)).orElseThrow();

        HitAnswer atOnce = format.answer(item, 0, 3600, NOW);
        HitAnswer later = format.answer(item, 0, 3600, NOW + 50_000);

        assertThat(atOnce.response().headers().getFirst(HttpHeaders.AGE)).isEqualTo(Long.toString(stored));
        assertThat(atOnce.age()).isEqualTo(new ItemAge(Staleness.FRESH, OptionalLong.of(130 - stored)));
        assertThat(later.response().headers().getFirst(HttpHeaders.AGE)).isEqualTo(Long.toString(stored + 50));
        assertThat(later.age()).isEqualTo(new ItemAge(Staleness.EXPIRED, OptionalLong.of(80 - stored)));
    }

    @Test
    void servesOnlyTheVariantARequestAsksFor() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.VARY, "Accept-Language");
        HttpHeaders english = new HttpHeaders();
        english.set("Accept-Language", "en");
        HttpHeaders french = new HttpHeaders();
        french.set("Accept-Language", "fr");
        CapturedResponse captured = format.capture(answer(headers), english);

        assertThat(format.canAnswer(english, captured)).isTrue();
        assertThat(format.canAnswer(french, captured)).isFalse();
        assertThat(format.canAnswer(new HttpHeaders(), captured)).isFalse();
        assertThat(format.otherVariant("http:/a", captured, english)).isEmpty();
        assertThat(format.otherVariant("http:/a", captured, french)).get().asString().startsWith("http:/a#");
        assertThat(format.isFresh(MetaItem.withoutMeta(format.encode(captured, 0, NOW)))).isTrue();
    }

}
