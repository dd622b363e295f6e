package dev.cachegateway.gateway.cache.tag;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import dev.cachegateway.gateway.cache.tag.ItemTags.Stamp;
import org.junit.jupiter.api.Test;

class ItemTagsTests {

    @Test
    void readsTheStampsItWrites() {
        List<Stamp> stamps = List.of(new Stamp("comments", 0x1234L), new Stamp("user=paul", (1L << 62) - 1));

        String header = ItemTags.header(stamps);

        assertThat(header).isEqualTo("comments=0000000000001234 user=paul=3fffffffffffffff");
        assertThat(ItemTags.of(header)).isEqualTo(new ItemTags(stamps, true));
        assertThat(ItemTags.of(header).names()).containsExactly("comments", "user=paul");
    }

    @Test
    void takesAnItemWithoutTheHeaderAsUntagged() {
        assertThat(ItemTags.of(null).none()).isTrue();
        assertThat(ItemTags.of(" ").none()).isTrue();
    }

    @Test
    void takesAHeaderItCannotReadAsUnreadableNotAsUntagged() {
        assertThat(ItemTags.of("comments").readable()).isFalse();
        assertThat(ItemTags.of("comments=12").readable()).isFalse();
        assertThat(ItemTags.of("comments=zzzzzzzzzzzzzzzz").readable()).isFalse();
        assertThat(ItemTags.of("comments").none()).isFalse();
    }

}
