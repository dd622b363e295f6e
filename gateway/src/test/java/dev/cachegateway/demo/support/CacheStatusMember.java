package dev.cachegateway.demo.support;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import org.greenbytes.http.sfv.ListElement;
import org.greenbytes.http.sfv.OuterList;
import org.greenbytes.http.sfv.Parser;

/**
 * One cache's member of an RFC 9211 Cache-Status field, read with an RFC 8941 parser as a
 * client reads it: the cache's name and its parameters, as Java values (true for a bare
 * parameter, a String for a token).
 *
 * @param cache the cache's name
 * @param parameters the parameters, in order
 */
public record CacheStatusMember(String cache, Map<String, Object> parameters) {

    /**
     * The last member of the field, the cache closest to the client; the parse fails on
     * any syntax error.
     */
    public static CacheStatusMember last(List<String> fieldLines) {
        List<CacheStatusMember> members = all(fieldLines);
        return members.get(members.size() - 1);
    }

    public static List<CacheStatusMember> all(List<String> fieldLines) {
        if (fieldLines == null || fieldLines.isEmpty()) {
            throw new AssertionError("no Cache-Status field");
        }
        OuterList list = new Parser(fieldLines).parseList();
        return list.get().stream().map(CacheStatusMember::of).toList();
    }

    private static CacheStatusMember of(ListElement<?> element) {
        Map<String, Object> parameters = new LinkedHashMap<>();
        element.getParams().forEach((name, value) -> parameters.put(name, value.get()));
        return new CacheStatusMember(String.valueOf(element.get()), parameters);
    }
}
