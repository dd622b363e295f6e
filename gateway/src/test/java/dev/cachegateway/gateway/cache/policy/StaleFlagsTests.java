package dev.cachegateway.gateway.cache.policy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class StaleFlagsTests {

    @ParameterizedTest(name = "stale-while-revalidate={0}, stale-if-error={1} -> {2}, {3}")
    @CsvSource(textBlock = """
            0,      0,       0,    0
            15,     15,      15,   15
            30,     60,      30,   60
            61,     61,      60,   60
            1984,   86400,   1984, 86016
            90,     90,      88,   88
            100000, 1000000, 1984, 507904
            """)
    void roundsEveryWindowDownToWhatTheBitsCanSay(long revalidate, long error, long keptRevalidate, long keptError) {
        StaleWindows kept = StaleFlags.decode(StaleFlags.encode(new StaleWindows(revalidate, error)));

        assertThat(kept).isEqualTo(new StaleWindows(keptRevalidate, keptError));
        assertThat(kept.whileRevalidate()).isLessThanOrEqualTo(revalidate);
        assertThat(kept.ifError()).isLessThanOrEqualTo(error);
    }

    @Test
    void usesOnlyBits16To30() {
        int flags = StaleFlags.encode(new StaleWindows(Long.MAX_VALUE, Long.MAX_VALUE));

        assertThat(flags & ~StaleFlags.MASK).isZero();
        assertThat(flags).isPositive();
    }

    @Test
    void readsNoWindowFromTheLowBitsOtherClientsUse() {
        assertThat(StaleFlags.decode(0xFFFF)).isEqualTo(StaleWindows.NONE);
        assertThat(StaleFlags.decode(StaleFlags.encode(new StaleWindows(30, 60)) | 2))
            .isEqualTo(new StaleWindows(30, 60));
    }

    @Test
    void growsWithEveryCode() {
        for (int code = 1; code < 256; code++) {
            assertThat(StaleFlags.seconds(code)).isGreaterThan(StaleFlags.seconds(code - 1));
        }
    }

}
