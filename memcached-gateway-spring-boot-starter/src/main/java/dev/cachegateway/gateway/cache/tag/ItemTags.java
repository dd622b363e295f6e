package dev.cachegateway.gateway.cache.tag;

import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * The tags an {@code http} item was stored with, each with the generation it had then, as
 * the item's {@value #HEADER} header holds them: {@code comments=1f0c... user-paul=...}.
 * Hits never send the header. An item whose header cannot be read counts as purged.
 *
 * @param stamps the tags and their generations, in the order stored
 * @param readable whether the header could be read
 */
public record ItemTags(List<Stamp> stamps, boolean readable) {

    /** The header that holds an item's tags. */
    public static final String HEADER = "X-Cache-Tags";

    /** An item stored without tags. */
    public static final ItemTags NONE = new ItemTags(List.of(), true);

    private static final HexFormat HEX = HexFormat.of();

    /** The tags in an item's {@value #HEADER} header; {@link #NONE} for none. */
    public static ItemTags of(@Nullable String header) {
        if (header == null || header.isBlank()) {
            return NONE;
        }
        List<Stamp> stamps = new ArrayList<>();
        for (String token : header.trim().split(" +")) {
            int equals = token.lastIndexOf('=');
            if (equals <= 0 || equals != token.length() - 17) {
                return new ItemTags(List.of(), false);
            }
            try {
                stamps.add(new Stamp(token.substring(0, equals),
                        HexFormat.fromHexDigitsToLong(token, equals + 1, token.length())));
            }
            catch (IllegalArgumentException notHex) {
                return new ItemTags(List.of(), false);
            }
        }
        return new ItemTags(List.copyOf(stamps), true);
    }

    /** The header's value for these stamps. */
    public static String header(List<Stamp> stamps) {
        StringBuilder value = new StringBuilder();
        for (Stamp stamp : stamps) {
            if (!value.isEmpty()) {
                value.append(' ');
            }
            value.append(stamp.name()).append('=').append(HEX.toHexDigits(stamp.generation()));
        }
        return value.toString();
    }

    /** The tags' names. */
    public List<String> names() {
        return stamps.stream().map(Stamp::name).toList();
    }

    /** Whether the item was stored with no tags. */
    public boolean none() {
        return readable && stamps.isEmpty();
    }

    /**
     * A tag and its generation when the item was stored.
     *
     * @param name the tag
     * @param generation its generation then
     */
    public record Stamp(String name, long generation) {
    }

}
