package dev.cachegateway.gateway.cache.key;

import java.util.List;
import java.util.Locale;

import org.jspecify.annotations.Nullable;

import org.springframework.http.HttpHeaders;

/**
 * nginx's {@code $http_<name>}: a request header, named in lower case with {@code _} for
 * {@code -}, so that {@code $http_accept_language} is {@code Accept-Language}. nginx
 * joins the lines of a header with ", ", but those of Cookie with "; ", and a missing
 * header is empty.
 *
 * @param name the header's name in lower case, such as {@code accept-language}
 */
record HeaderVariable(String name) implements CacheKeyTemplate.Part {

    private static final String PREFIX = "http_";

    /**
     * The header variable of that name (without the {@code $}), or null if it is not an
     * {@code $http_} one.
     */
    static @Nullable HeaderVariable named(String variable) {
        if (!variable.startsWith(PREFIX)) {
            return null;
        }
        return new HeaderVariable(variable.substring(PREFIX.length()).replace('_', '-').toLowerCase(Locale.ROOT));
    }

    @Override
    public String value(String rawPath, @Nullable String rawQuery, HttpHeaders headers) {
        List<String> lines = headers.get(name);
        return lines == null ? "" : String.join(name.equals("cookie") ? "; " : ", ", lines);
    }
}
