package dev.cachegateway.gateway.cache.response;

import java.util.Base64;
import java.util.List;

import dev.cachegateway.gateway.digest.Md5;
import org.jspecify.annotations.Nullable;

import org.springframework.http.ETag;
import org.springframework.http.HttpHeaders;

/**
 * Strong entity tags of the bytes memcached holds, and RFC 9110's If-None-Match test
 * against them. A tag depends on the bytes alone, so a stored miss, every later hit and
 * every replica give the same one.
 */
public final class EntityTags {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    private EntityTags() {
    }

    /**
     * {@code "} + the unpadded base64url of the bytes' MD5 + {@code "}: a digest for
     * identity, not for security.
     */
    public static String of(byte[] bytes) {
        return '"' + BASE64URL.encodeToString(Md5.digest(bytes)) + '"';
    }

    /**
     * Whether a request's If-None-Match matches {@code etag}, with the weak comparison
     * RFC 9110 13.1.2 asks for; {@code *} matches any current representation.
     */
    public static boolean noneMatchFails(HttpHeaders request, @Nullable String etag) {
        List<String> lines = request.get(HttpHeaders.IF_NONE_MATCH);
        if (lines == null || etag == null) {
            return false;
        }
        ETag current = ETag.create(etag);
        for (String line : lines) {
            for (ETag candidate : ETag.parse(line)) {
                if (candidate.isWildcard() || candidate.compare(current, false)) {
                    return true;
                }
            }
        }
        return false;
    }

}
