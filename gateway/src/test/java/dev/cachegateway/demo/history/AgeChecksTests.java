package dev.cachegateway.demo.history;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;

import dev.cachegateway.demo.history.History.Request;
import dev.cachegateway.demo.history.VersionedOrigin.Call;
import org.junit.jupiter.api.Test;

class AgeChecksTests {

    static final long SECOND = 1_000_000_000L;

    // /api/v1/comments/w-1 is answered with Age 5 and max-age 120; w-9 with max-age 3 and
    // no Age.
    static final Call UPSTREAM_AGED = new Call("/api/v1/comments/w-1", "GET", 1, 7, 0, SECOND / 10, "en");

    static final Call SHORT_LIVED = new Call("/api/v1/comments/b-9", "GET", 1, 8, 0, SECOND / 10, "null");

    @Test
    void takesAnAgeThatAddsTheOriginsOwnToTheTimeSinceItAnswered() {
        assertThat(check(read("/api/v1/whole/comments/w-1", 7, "HIT", "8", 3 * SECOND), UPSTREAM_AGED)).isEmpty();
    }

    @Test
    void findsTheOriginsAgeLeftOut() {
        assertThat(check(read("/api/v1/whole/comments/w-1", 7, "HIT", "3", 3 * SECOND), UPSTREAM_AGED)).singleElement()
            .asString()
            .startsWith("Age 3 outside 7..");
    }

    @Test
    void findsTheOriginsAgeCountedTwice() {
        assertThat(check(read("/api/v1/whole/comments/w-1", 7, "HIT", "13", 3 * SECOND), UPSTREAM_AGED)).singleElement()
            .asString()
            .startsWith("Age 13 outside 7..10");
    }

    @Test
    void findsAFreshAnswerPastItsMaxAgeButNotAStaleOne() {
        assertThat(check(read("/api/v1/comments/b-9", 8, "HIT", null, 11 * SECOND), SHORT_LIVED)).singleElement()
            .asString()
            .startsWith("fresh answer 10 s old");
        assertThat(check(read("/api/v1/comments/b-9", 8, "STALE", null, 11 * SECOND), SHORT_LIVED)).isEmpty();
    }

    // A 304 at 20 s makes the answer stored at 0 s fresh again: at 23 s it is 3 s old,
    // not
    // 23, but never younger than the 304.
    @Test
    void countsAnAnswerRevalidatedByA304FromThe304() {
        Call revalidated = new Call("/api/v1/comments/b-9", VersionedOrigin.REVALIDATED, 1, 0, 20 * SECOND,
                20 * SECOND + SECOND / 10, "null");

        assertThat(check(read("/api/v1/comments/b-9", 8, "HIT", null, 23 * SECOND), SHORT_LIVED, revalidated))
            .isEmpty();
        assertThat(check(read("/api/v1/whole/comments/b-9", 8, "HIT", "1", 23 * SECOND), SHORT_LIVED, revalidated))
            .singleElement()
            .asString()
            .startsWith("Age 1 outside 2..");
    }

    // The read that asked for the 304 gets an answer as young as the 304.
    @Test
    void takesAnAgeOfZeroOnTheAnswerARevalidationRefreshed() {
        Call revalidated = new Call("/api/v1/comments/w-9", VersionedOrigin.REVALIDATED, 1, 0, 20 * SECOND,
                20 * SECOND + SECOND / 200, "en");
        Call stored = new Call("/api/v1/comments/w-9", "GET", 1, 8, 0, SECOND / 10, "en");

        assertThat(check(read("/api/v1/whole/comments/w-9", 8, "REVALIDATED", null, 20 * SECOND), stored, revalidated))
            .isEmpty();
    }

    // The origin notes a 304 once it has sent it: the read it answered may have ended
    // first.
    @Test
    void takesTheReadsOwnRevalidationThatTheOriginNotedAfterTheReadEnded() {
        Call revalidated = new Call("/api/v1/comments/w-9", VersionedOrigin.REVALIDATED, 1, 0, 20 * SECOND,
                20 * SECOND + SECOND / 10, "en");
        Call stored = new Call("/api/v1/comments/w-9", "GET", 1, 8, 0, SECOND / 10, "en");

        assertThat(check(read("/api/v1/whole/comments/w-9", 8, "REVALIDATED", null, 20 * SECOND - SECOND / 200), stored,
                revalidated))
            .isEmpty();
    }

    private static Request read(String path, long serial, String xCache, String age, long at) {
        String originPath = path.replace("/whole", "");
        return new Request(1, 0, "GET", path, originPath, null, at, at + SECOND / 100, 200,
                "{\"path\":\"" + originPath + "\",\"version\":1,\"serial\":" + serial + "}", xCache, "", age, null);
    }

    private static List<String> check(Request read, Call call, Call... revalidations) {
        return new AgeChecks(List.of(read), Map.of(Long.toString(call.serial()), call), List.of(revalidations),
                new HistorySlices(List.of(read), List.of(), List.of()))
            .violations();
    }

}
