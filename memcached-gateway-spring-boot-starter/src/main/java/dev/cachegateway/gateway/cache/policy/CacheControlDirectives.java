package dev.cachegateway.gateway.cache.policy;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A response's {@code Cache-Control} directives, parsed as RFC 9111 reads them: every
 * header line, several comma-separated directives per line, case-insensitive names and
 * quoted values. Spring's {@code CacheControl} builds the header but does not parse it.
 */
final class CacheControlDirectives {

    /** What RFC 9111 says to use for a delta-seconds value too large to represent. */
    static final long MAX_DELTA_SECONDS = 2_147_483_648L;

    private final Map<String, String> directives;

    private CacheControlDirectives(Map<String, String> directives) {
        this.directives = directives;
    }

    static CacheControlDirectives parse(List<String> headerLines) {
        Map<String, String> directives = new HashMap<>();
        for (String line : headerLines) {
            int start = 0;
            boolean quoted = false;
            for (int i = 0; i <= line.length(); i++) {
                if (i < line.length() && line.charAt(i) == '"') {
                    quoted = !quoted;
                }
                else if (i == line.length() || (line.charAt(i) == ',' && !quoted)) {
                    add(line.substring(start, i), directives);
                    start = i + 1;
                }
            }
        }
        return new CacheControlDirectives(directives);
    }

    boolean has(String name) {
        return directives.containsKey(name);
    }

    /**
     * The seconds of a delta-seconds directive such as {@code max-age}, or -1 if it is
     * absent or its value is not delta-seconds ({@code max-age=1h}, {@code max-age=-1}):
     * an invalid directive is ignored (RFC 9111 4.2.1). A value too large to represent is
     * 2^31, as RFC 9111 (1.2.2) says.
     */
    long seconds(String name) {
        String value = directives.get(name);
        if (value == null || value.isEmpty() || !value.chars().allMatch(c -> c >= '0' && c <= '9')) {
            return -1;
        }
        return value.length() > 10 ? MAX_DELTA_SECONDS : Math.min(Long.parseLong(value), MAX_DELTA_SECONDS);
    }

    private static void add(String directive, Map<String, String> directives) {
        String trimmed = directive.trim();
        if (trimmed.isEmpty()) {
            return;
        }
        int equals = trimmed.indexOf('=');
        String name = (equals < 0 ? trimmed : trimmed.substring(0, equals)).toLowerCase(Locale.ROOT);
        String value = equals < 0 ? "" : trimmed.substring(equals + 1);
        // directive = token [ "=" ( token / quoted-string ) ], with no whitespace around
        // "=": "max-age = 60" is not a max-age, and is ignored rather than guessed at.
        if (name.isEmpty() || !name.chars().noneMatch(Character::isWhitespace)
                || (!value.isEmpty() && Character.isWhitespace(value.charAt(0)))) {
            return;
        }
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        // The first occurrence wins, as in most caches; a repeated directive is a
        // sender's error.
        directives.putIfAbsent(name, value);
    }

}
