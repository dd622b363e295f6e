package dev.cachegateway.gateway.cache.key;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cachegateway.gateway.memcached.MemcachedLimits;
import org.junit.jupiter.api.Test;

class WriteMarkKeyTests {

    @Test
    void marksAPageKeyBesideIt() {
        assertThat(WriteMarkKey.of("/api/v1/comments/1")).isEqualTo("/api/v1/comments/1%written");
    }

    @Test
    void marksAPageKeyTooLongForTheSuffixUnderItsDigestOne() {
        String longest = "/" + "a".repeat(249);
        String other = "/" + "b".repeat(249);

        assertThat(WriteMarkKey.of(longest)).startsWith("%written:").isNotEqualTo(WriteMarkKey.of(other));
        assertThat(MemcachedLimits.fitsKeyLength(WriteMarkKey.of(longest))).isTrue();
        assertThat(WriteMarkKey.of(longest)).isEqualTo(WriteMarkKey.of(longest));
    }

}
