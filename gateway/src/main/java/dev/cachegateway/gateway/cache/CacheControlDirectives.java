package dev.cachegateway.gateway.cache;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A response's {@code Cache-Control} directives, parsed as RFC 9111 reads them: every header line, several
 * comma-separated directives per line, case-insensitive names and quoted values. Spring's {@code CacheControl}
 * builds the header but does not parse it.
 */
final class CacheControlDirectives {

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
     * The seconds of a delta-seconds directive such as {@code max-age}. A value that is not a number counts as 0:
     * RFC 9111 treats an invalid freshness lifetime as already stale.
     */
    long seconds(String name) {
        try {
            return Math.max(0, Long.parseLong(directives.getOrDefault(name, "0")));
        }
        catch (NumberFormatException ex) {
            return 0;
        }
    }

    private static void add(String directive, Map<String, String> directives) {
        String trimmed = directive.trim();
        if (trimmed.isEmpty()) {
            return;
        }
        int equals = trimmed.indexOf('=');
        String name = (equals < 0 ? trimmed : trimmed.substring(0, equals)).trim().toLowerCase(Locale.ROOT);
        String value = equals < 0 ? "" : trimmed.substring(equals + 1).trim();
        if (value.length() >= 2 && value.startsWith("\"") && value.endsWith("\"")) {
            value = value.substring(1, value.length() - 1);
        }
        // The first occurrence wins, as in most caches; a repeated directive is a sender's error.
        directives.putIfAbsent(name, value);
    }
}
