package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;

class AgedHeadersTests {

    private static final long NOW = 1_800_000_000_000L;

    private static HttpHeaders stored(boolean dated) {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.CACHE_CONTROL, "max-age=60");
        if (dated) {
            headers.setDate(NOW - 10_000);
        }
        return headers;
    }

    @Test
    void sendsTheAgeOfEachHit() {
        AgedHeaders aged = new AgedHeaders(stored(true));

        HttpHeaders first = aged.at(10, NOW);
        HttpHeaders sameSecond = aged.at(10, NOW + 400);
        HttpHeaders older = aged.at(11, NOW + 1_000);

        assertThat(sameSecond).isSameAs(first);
        assertThat(first.getFirst(HttpHeaders.AGE)).isEqualTo("10");
        assertThat(older.getFirst(HttpHeaders.AGE)).isEqualTo("11");
        assertThat(older.getDate()).isEqualTo(NOW - 10_000);
        assertThat(older.getCacheControl()).isEqualTo("max-age=60");
    }

    @Test
    void datesAnAnswerStoredWithoutDateAtEachSecond() {
        AgedHeaders aged = new AgedHeaders(stored(false));

        HttpHeaders first = aged.at(0, NOW);
        HttpHeaders next = aged.at(0, NOW + 1_000);

        assertThat(first.getDate()).isEqualTo(NOW);
        assertThat(next.getDate()).isEqualTo(NOW + 1_000);
    }

    @Test
    void handsOutHeadersNoHitCanChange() {
        HttpHeaders headers = new AgedHeaders(stored(true)).at(0, NOW);

        assertThatThrownBy(() -> headers.set(HttpHeaders.AGE, "5")).isInstanceOf(UnsupportedOperationException.class);
    }

}
