package dev.cachegateway.gateway.cache.response;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class CurrentDateTests {

    // Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example.
    private static final long EXAMPLE = 784_111_777_000L;

    private final CurrentDate date = new CurrentDate();

    @Test
    void writesAnImfFixdate() {
        assertThat(date.at(EXAMPLE + 999)).isEqualTo("Sun, 06 Nov 1994 08:49:37 GMT");
    }

    @Test
    void formatsOnceASecond() {
        String first = date.at(EXAMPLE);

        assertThat(date.at(EXAMPLE + 500)).isSameAs(first);
        assertThat(date.at(EXAMPLE + 1000)).isEqualTo("Sun, 06 Nov 1994 08:49:38 GMT");
    }

}
