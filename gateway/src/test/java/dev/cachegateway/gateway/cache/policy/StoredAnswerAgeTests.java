package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cachegateway.gateway.cache.policy.ItemAge.Staleness;
import dev.cachegateway.gateway.memcached.MetaItem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.http.HttpHeaders;

class StoredAnswerAgeTests {

    private static final long NOW = 1_800_000_000_000L;

    private static HttpHeaders headers(String cacheControl, long dateSecondsAgo) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, cacheControl);
        if (dateSecondsAgo >= 0) {
            headers.setDate(NOW - dateSecondsAgo * 1000);
        }
        return headers;
    }

    @Test
    void agesAnAnswerFromItsDateAndTheAgeItWasStoredWith() {
        HttpHeaders stored = headers("max-age=100", 30);
        stored.set(HttpHeaders.AGE, "20");

        StoredAnswerAge age = StoredAnswerAge.of(stored, 0, 3600, NOW);

        assertThat(age.seconds()).isEqualTo(50);
        assertThat(age.age().ttl()).hasValue(50);
        assertThat(age.age().staleness()).isEqualTo(Staleness.FRESH);
    }

    @Test
    void findsAnAnswerPastItsLifetimeStaleWhateverItsTtl() {
        StoredAnswerAge age = StoredAnswerAge.of(headers("max-age=60", 100), 0, 3000, NOW);

        assertThat(age.age().staleness()).isEqualTo(Staleness.EXPIRED);
        assertThat(age.age().ttl()).hasValue(-40);
    }

    @Test
    void placesAStaleAnswerInTheWindowsItsFlagsCarry() {
        int flags = StaleFlags.encode(new StaleWindows(60, 600));

        assertThat(StoredAnswerAge.of(headers("max-age=60", 100), flags, 3000, NOW).age().staleness())
            .isEqualTo(Staleness.WHILE_REVALIDATE);
        assertThat(StoredAnswerAge.of(headers("max-age=60", 200), flags, 3000, NOW).age().staleness())
            .isEqualTo(Staleness.IF_ERROR);
    }

    @Test
    void agesAnAnswerWithoutADateFromTheTtlItsWriterGaveIt() {
        StoredAnswerAge age = StoredAnswerAge.of(headers("max-age=100", -1), 0, 70, NOW);

        assertThat(age.seconds()).isEqualTo(30);
        assertThat(age.age().ttl()).hasValue(70);
    }

    @Test
    void takesAnAnswerWithoutADateAndATtlAsFreshAndNew() {
        StoredAnswerAge age = StoredAnswerAge.of(headers("max-age=100", -1), 0, MetaItem.TTL_UNKNOWN, NOW);

        assertThat(age.age()).isEqualTo(ItemAge.UNKNOWN);
        assertThat(age.seconds()).isZero();
    }

    @Test
    void readsExpiresAgainstTheStoredDate() {
        HttpHeaders stored = headers("public", 10);
        stored.remove(HttpHeaders.CACHE_CONTROL);
        stored.setExpires(NOW - 10_000 + 60_000);

        assertThat(StoredAnswerAge.of(stored, 0, 3600, NOW).age().ttl()).hasValue(50);
    }

    // Stored so, the Age plus the time since the Date is at first the larger of the two,
    // not their sum.
    @ParameterizedTest(name = "Date {0} s old, Age {1}: stores Age {2}")
    @CsvSource(nullValues = "none", textBlock = """
            0,   100,  100
            100, none, 0
            100, 100,  0
            10,  100,  90
            100, 10,   0
            -30, 100,  100
            """)
    void storesOnlyTheAgeThatTheDateDoesNotTell(long dateSecondsOld, String age, long stored) {
        HttpHeaders answer = headers("max-age=600", 0);
        answer.setDate(NOW - dateSecondsOld * 1000);
        if (age != null) {
            answer.set(HttpHeaders.AGE, age);
        }

        assertThat(StoredAnswerAge.toStore(answer, NOW)).isEqualTo(stored);
    }

    @Test
    void keepsTheAgeOfAnAnswerWithoutOneValidDate() {
        HttpHeaders answer = headers("max-age=600", -1);
        answer.set(HttpHeaders.AGE, "100");
        answer.set(HttpHeaders.DATE, "yesterday");

        assertThat(StoredAnswerAge.toStore(answer, NOW)).isEqualTo(100);
    }

}
