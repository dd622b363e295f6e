package dev.cachegateway.gateway.cache.response;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.List;

import org.springframework.http.ETag;
import org.springframework.http.HttpHeaders;

/**
 * Strong entity tags of the bytes memcached holds, and RFC 9110's If-None-Match test against them. A tag depends on
 * the bytes alone, so a stored miss, every later hit and every replica give the same one.
 */
public final class EntityTags {

    private static final Base64.Encoder BASE64URL = Base64.getUrlEncoder().withoutPadding();

    // Cloned for each tag: a clone costs a fraction of getInstance's provider lookup, which every hit would pay.
    private static final MessageDigest MD5 = md5();

    private EntityTags() {
    }

    /** {@code "} + the unpadded base64url of the bytes' MD5 + {@code "}: a digest for identity, not for security. */
    public static String of(byte[] bytes) {
        try {
            byte[] digest = ((MessageDigest) MD5.clone()).digest(bytes);
            return '"' + BASE64URL.encodeToString(digest) + '"';
        }
        catch (CloneNotSupportedException ex) {
            throw new IllegalStateException("The JDK's MD5 can be cloned", ex);
        }
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("Every Java platform has MD5", ex);
        }
    }

    /**
     * Whether a request's If-None-Match matches {@code etag}, with the weak comparison RFC 9110 13.1.2 asks for;
     * {@code *} matches any current representation.
     */
    public static boolean noneMatchFails(HttpHeaders request, String etag) {
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
