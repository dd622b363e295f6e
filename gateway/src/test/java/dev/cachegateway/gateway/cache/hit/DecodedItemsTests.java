package dev.cachegateway.gateway.cache.hit;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;

import dev.cachegateway.gateway.cache.DecodedItemsProperties;
import dev.cachegateway.gateway.cache.format.BodyFormat;
import dev.cachegateway.gateway.cache.format.DecodedItem;
import dev.cachegateway.gateway.cache.format.HttpFormat;
import dev.cachegateway.gateway.cache.response.EntityTags;
import dev.cachegateway.gateway.memcached.CachedItem;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.util.unit.DataSize;

/**
 * One reading per version of an item: reused only for the same bytes, flags and format.
 */
class DecodedItemsTests {

    private final BodyFormat body = new BodyFormat(MediaType.APPLICATION_JSON, 2);

    private final HttpFormat http = new HttpFormat(List.of(), List.of());

    private static DecodedItems withMaxBytes(String maxBytes) {
        DecodedItemsProperties properties = new DecodedItemsProperties();
        properties.setMaxBytes(DataSize.parse(maxBytes));
        return DecodedItems.of(properties);
    }

    private static CachedItem item(String text, int flags) {
        return new CachedItem(text.getBytes(StandardCharsets.UTF_8), flags);
    }

    @Test
    void readsAVersionOnceForEveryHitOnIt() {
        DecodedItems items = withMaxBytes("1MB");

        DecodedItem first = items.read("/a", item("{\"a\":1}", 0), body).orElseThrow();
        // Another array with the same bytes: the same version, as memcached returns it on
        // the next lookup.
        DecodedItem again = items.read("/a", item("{\"a\":1}", 0), body).orElseThrow();

        assertThat(again).isSameAs(first);
        assertThat(first.hitHeaders().at(0, 0).headers().getETag()).isEqualTo(EntityTags.of(first.stored().body()));
    }

    @Test
    void readsAnotherVersionAnew() {
        DecodedItems items = withMaxBytes("1MB");
        DecodedItem first = items.read("/a", item("{\"a\":1}", 0), body).orElseThrow();

        DecodedItem changed = items.read("/a", item("{\"a\":2}", 0), body).orElseThrow();
        DecodedItem gzipped = items.read("/a", item("{\"a\":2}", 2), body).orElseThrow();

        assertThat(changed.stored().body()).asString(StandardCharsets.UTF_8).isEqualTo("{\"a\":2}");
        assertThat(changed.hitHeaders().at(0, 0).headers().getETag())
            .isNotEqualTo(first.hitHeaders().at(0, 0).headers().getETag());
        assertThat(gzipped.hitHeaders().at(0, 0).headers().getFirst(HttpHeaders.CONTENT_ENCODING)).isEqualTo("gzip");
        assertThat(changed.hitHeaders().at(0, 0).headers().containsHeader(HttpHeaders.CONTENT_ENCODING)).isFalse();
    }

    @Test
    void neverHandsOneFormatsReadingToAnother() {
        DecodedItems items = withMaxBytes("1MB");
        CachedItem message = item("HTTP/1.1 201 Created\r\nX-A: 1\r\n\r\n{}", 0);

        items.read("/a", message, body).orElseThrow();
        DecodedItem asHttp = items.read("/a", message, http).orElseThrow();

        assertThat(asHttp.stored().status().value()).isEqualTo(201);
        assertThat(asHttp.hitHeaders().at(0, 0).headers().getFirst("X-A")).isEqualTo("1");
    }

    @Test
    void keepsNoReadingOfAnItemNotOfTheFormat() {
        DecodedItems items = withMaxBytes("1MB");

        assertThat(items.read("/a", item("{}", 0), http)).isEmpty();
        assertThat(items.size()).isZero();
    }

    @Test
    void holdsNoMoreThanItsBytesAndNothingWhenOff() {
        DecodedItems small = withMaxBytes("4KB");
        DecodedItems off = withMaxBytes("0B");
        String kilobyte = "x".repeat(1024);

        for (int i = 0; i < 20; i++) {
            small.read("/" + i, item(kilobyte + i, 0), body);
            off.read("/" + i, item(kilobyte + i, 0), body);
        }

        assertThat(small.size()).isBetween(1L, 2L);
        assertThat(off.size()).isZero();
        assertThat(off.read("/a", item("{}", 0), body)).isPresent();
    }

}
