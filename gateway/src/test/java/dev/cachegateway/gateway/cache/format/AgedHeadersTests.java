package dev.cachegateway.gateway.cache.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cachegateway.gateway.cache.response.WireHeaders;
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

        WireHeaders sent = aged.at(10, NOW);
        WireHeaders sameSecond = aged.at(10, NOW + 400);
        HttpHeaders first = sent.headers();
        HttpHeaders older = aged.at(11, NOW + 1_000).headers();

        // The same object, so that their form as written is made once for both.
        assertThat(sameSecond).isSameAs(sent);
        assertThat(first.getFirst(HttpHeaders.AGE)).isEqualTo("10");
        assertThat(older.getFirst(HttpHeaders.AGE)).isEqualTo("11");
        assertThat(older.getDate()).isEqualTo(NOW - 10_000);
        assertThat(older.getCacheControl()).isEqualTo("max-age=60");
    }

    @Test
    void datesAnAnswerStoredWithoutDateAtEachSecond() {
        AgedHeaders aged = new AgedHeaders(stored(false));

        HttpHeaders first = aged.at(0, NOW).headers();
        HttpHeaders next = aged.at(0, NOW + 1_000).headers();

        assertThat(first.getDate()).isEqualTo(NOW);
        assertThat(next.getDate()).isEqualTo(NOW + 1_000);
    }

    @Test
    void handsOutHeadersNoHitCanChange() {
        HttpHeaders headers = new AgedHeaders(stored(true)).at(0, NOW).headers();

        assertThatThrownBy(() -> headers.set(HttpHeaders.AGE, "5")).isInstanceOf(UnsupportedOperationException.class);
    }

}
