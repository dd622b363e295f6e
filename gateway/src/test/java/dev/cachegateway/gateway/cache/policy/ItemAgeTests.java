package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.OptionalLong;

import dev.cachegateway.gateway.cache.policy.ItemAge.Staleness;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ItemAgeTests {

    // Fresh for its first 60 s, then 10 s of stale-while-revalidate and 30 s of
    // stale-if-error: it lives 90 s.
    static final int FLAGS = StaleFlags.encode(new StaleWindows(10, 30));

    @ParameterizedTest(name = "{0} s left -> {1}, ttl {2}")
    @CsvSource(textBlock = """
            90, FRESH,            60
            31, FRESH,            1
            30, WHILE_REVALIDATE, 0
            21, WHILE_REVALIDATE, -9
            20, IF_ERROR,         -10
            1,  IF_ERROR,         -29
            0,  EXPIRED,          -30
            """)
    void tellsFreshFromStaleByTheTtlLeftAndTheWindowsInTheFlags(long left, Staleness staleness, long ttl) {
        assertThat(ItemAge.of(FLAGS, left)).isEqualTo(new ItemAge(staleness, OptionalLong.of(ttl)));
    }

    @Test
    void takesAnItemWithoutWindowsAsFreshForItsWholeLife() {
        assertThat(ItemAge.of(0, 0).staleness()).isEqualTo(Staleness.FRESH);
        assertThat(ItemAge.of(2, 5)).isEqualTo(new ItemAge(Staleness.FRESH, OptionalLong.of(5)));
    }

    @Test
    void takesAnItemThatNeverExpiresAsFresh() {
        assertThat(ItemAge.of(FLAGS, -1)).isEqualTo(new ItemAge(Staleness.FRESH, OptionalLong.empty()));
    }

    // A soft purge: memcached says the item was invalidated.
    @ParameterizedTest(name = "{0} s left, windows {1}/{2} -> {3}")
    @CsvSource(textBlock = """
            90, 10, 30, WHILE_REVALIDATE
            90, 0,  30, IF_ERROR
            90, 0,  0,  EXPIRED
            20, 10, 30, IF_ERROR
            """)
    void takesAnInvalidatedItemAsStaleFromNowAtTheLatest(long left, int whileRevalidate, int ifError,
            Staleness staleness) {
        StaleWindows windows = new StaleWindows(whileRevalidate, ifError);

        ItemAge age = ItemAge.of(StaleFlags.encode(windows), left).invalidated(windows);

        assertThat(age.staleness()).isEqualTo(staleness);
        assertThat(age.ttl().getAsLong()).isNotPositive();
    }

}
