package dev.cachegateway.gateway.cache.policy;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

import org.springframework.http.HttpHeaders;

/**
 * The cache directives this gateway follows: {@code CDN-Cache-Control} (RFC 9213), the
 * field an origin addresses to the caches it operates, such as this gateway, when it
 * holds a valid Structured Field dictionary; else {@code Cache-Control} and
 * {@code Expires}. A targeted field that is present and valid replaces both for this
 * cache alone, so an origin can keep a page long here and briefly in browsers. One that
 * is not valid is ignored as a whole.
 *
 * @param directives the directives to follow
 * @param targeted whether they came from {@code CDN-Cache-Control}, so that
 * {@code Expires} has no say
 */
record TargetedCacheControl(CacheControlDirectives directives, boolean targeted) {

    static final String HEADER = "CDN-Cache-Control";

    private static final Set<String> DELTA_SECONDS = Set.of("max-age", "s-maxage", "stale-while-revalidate",
            "stale-if-error");

    private static final Set<String> FLAGS = Set.of("no-store", "no-cache", "private", "public", "must-revalidate",
            "proxy-revalidate", "immutable", "no-transform");

    // RFC 8941: key [ "=" bare-item ] *( ";" key [ "=" bare-item ] ), members separated
    // by "," and optional spaces.
    private static final String KEY = "[a-z*][a-z0-9_\\-.*]*";

    private static final String BARE_ITEM = "(?:-?\\d{1,15}(?:\\.\\d{1,3})?|\"(?:[\\x20-\\x21\\x23-\\x5b\\x5d-\\x7e]"
            + "|\\\\[\"\\\\])*\"|[A-Za-z*][!#$%&'*+\\-.^_`|~:/A-Za-z0-9]*|:[A-Za-z0-9+/=]*:|\\?[01])";

    private static final String PARAMETERS = "(?:;" + " *" + KEY + "(?:=" + BARE_ITEM + ")?)*";

    private static final String MEMBER = KEY + "(?:=(?:" + BARE_ITEM + "|\\((?: *" + BARE_ITEM + PARAMETERS + ")* *\\))"
            + PARAMETERS + "|" + PARAMETERS + ")";

    private static final Pattern DICTIONARY = Pattern.compile(MEMBER + "(?:[ \\t]*,[ \\t]*" + MEMBER + ")*");

    private static final Pattern INTEGER = Pattern.compile("\\d{1,15}");

    static TargetedCacheControl of(HttpHeaders headers) {
        List<String> lines = headers.get(HEADER);
        if (lines != null && isValid(String.join(", ", lines))) {
            return new TargetedCacheControl(CacheControlDirectives.parse(lines), true);
        }
        return new TargetedCacheControl(
                CacheControlDirectives.parse(headers.getValuesAsList(HttpHeaders.CACHE_CONTROL)), false);
    }

    /**
     * The headers freshness is judged by: without {@code Expires} when the targeted field
     * governs.
     */
    HttpHeaders freshnessHeaders(HttpHeaders headers) {
        if (!targeted || !headers.containsHeader(HttpHeaders.EXPIRES)) {
            return headers;
        }
        HttpHeaders withoutExpires = HttpHeaders.copyOf(headers);
        withoutExpires.remove(HttpHeaders.EXPIRES);
        return withoutExpires;
    }

    // A valid dictionary whose known directives have the types RFC 9213 gives them: an
    // integer for the seconds, and no value (true) for the others.
    private static boolean isValid(String field) {
        String value = field.trim();
        if (!DICTIONARY.matcher(value).matches()) {
            return false;
        }
        for (String member : value.split(",")) {
            String[] parts = member.trim().split(";")[0].split("=", 2);
            String key = parts[0];
            if (DELTA_SECONDS.contains(key) && (parts.length < 2 || !INTEGER.matcher(parts[1]).matches())) {
                return false;
            }
            if (FLAGS.contains(key) && parts.length == 2 && !parts[1].equals("?1")) {
                return false;
            }
        }
        return true;
    }
}
