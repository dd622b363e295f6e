package dev.cachegateway.gateway.cache.key;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.cachegateway.gateway.memcached.MemcachedLimits;
import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * Turns a request into its memcached key, as nginx's {@code set $memcached_key ...} does.
 * The template may use {@code $uri} (the decoded, normalised path), {@code $args} (the
 * raw query string), {@code $is_args} ({@code ?} when there is a query string) and
 * {@code $http_<name>} (a request header: {@code $http_accept_language} is
 * {@code Accept-Language}; several lines of it are joined with ", " and a missing one is
 * empty, as in nginx); the default is {@code $uri}. The key is escaped like nginx's
 * {@code NGX_ESCAPE_MEMCACHED}, so that items written for nginx are found under the same
 * keys.
 */
public final class CacheKeyTemplate {

    private static final Pattern VARIABLE = Pattern.compile("\\$(?:\\{(\\w+)}|(\\w+))");

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private final String source;

    private final List<Part> parts;

    private final Set<String> headerNames;

    private CacheKeyTemplate(String source, List<Part> parts, Set<String> headerNames) {
        this.source = source;
        this.parts = parts;
        this.headerNames = headerNames;
    }

    /**
     * Parses a template; an unknown variable fails here, at start-up, rather than on
     * every request.
     */
    public static CacheKeyTemplate parse(String template) {
        List<Part> parts = new ArrayList<>();
        Set<String> headerNames = new LinkedHashSet<>();
        Matcher matcher = VARIABLE.matcher(template);
        int literalStart = 0;
        while (matcher.find()) {
            if (matcher.start() > literalStart) {
                parts.add(new Literal(template.substring(literalStart, matcher.start())));
            }
            String name = matcher.group(1) != null ? matcher.group(1) : matcher.group(2);
            HeaderVariable header = HeaderVariable.named(name);
            if (header != null) {
                headerNames.add(header.name());
                parts.add(header);
            }
            else {
                parts.add(variable(name, template));
            }
            literalStart = matcher.end();
        }
        if (literalStart < template.length()) {
            parts.add(new Literal(template.substring(literalStart)));
        }
        if (parts.isEmpty()) {
            throw new IllegalArgumentException("The memcached key template is empty");
        }
        return new CacheKeyTemplate(template, List.copyOf(parts), Set.copyOf(headerNames));
    }

    /**
     * The request headers the key is made of, in lower case, such as
     * {@code accept-language}.
     */
    public Set<String> headerNames() {
        return headerNames;
    }

    /**
     * The escaped key for a request, or none: a path without a {@code $uri}, or a key
     * longer than memcached's 250 bytes. Such a request bypasses the cache.
     */
    public Optional<String> render(String rawPath, @Nullable String rawQuery) {
        return render(rawPath, rawQuery, HttpHeaders.EMPTY);
    }

    /**
     * As {@link #render(String, String)}, with the request's headers for the
     * {@code $http_} variables.
     */
    public Optional<String> render(String rawPath, @Nullable String rawQuery, HttpHeaders headers) {
        StringBuilder key = new StringBuilder(rawPath.length() + 16);
        for (Part part : parts) {
            String value = part.value(rawPath, rawQuery, headers);
            if (value == null) {
                return Optional.empty();
            }
            escape(value, key);
        }
        return MemcachedLimits.fitsKeyLength(key) ? Optional.of(key.toString()) : Optional.empty();
    }

    // NGX_ESCAPE_MEMCACHED: space, '%' and the control bytes 0x00-0x1F; everything else,
    // UTF-8 included, as is.
    private static void escape(String value, StringBuilder key) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c <= ' ' || c == '%') {
                key.append('%').append(HEX[c >> 4]).append(HEX[c & 0xf]);
            }
            else {
                key.append(c);
            }
        }
    }

    private static Part variable(String name, String template) {
        return switch (name) {
            case "uri" -> (path, query, headers) -> NginxUri.of(path);
            case "args" -> (path, query, headers) -> query != null ? query : "";
            case "is_args" -> (path, query, headers) -> query != null && !query.isEmpty() ? "?" : "";
            default -> throw new IllegalArgumentException("Unknown variable $" + name + " in memcached key template '"
                    + template + "'; use $uri, $args, $is_args or $http_<header>");
        };
    }

    @Override
    public String toString() {
        return source;
    }

    /**
     * One piece of a key: a literal or a variable's value, null when the request has
     * none.
     */
    interface Part {

        @Nullable String value(String rawPath, @Nullable String rawQuery, HttpHeaders headers);

    }

    private record Literal(String text) implements Part {

        @Override
        public String value(String rawPath, @Nullable String rawQuery, HttpHeaders headers) {
            return text;
        }
    }

}
