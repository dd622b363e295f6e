package dev.cachegateway.gateway.cache.purge;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

import org.jspecify.annotations.Nullable;

import org.springframework.util.StringUtils;

/**
 * Decides whether a purge may go on, from its {@code Authorization} header.
 */
public final class PurgeAccess {

    /** What becomes of a purge. */
    public enum Verdict {

        /** It goes on. */
        ALLOWED,
        /** A token is set, and the purge did not carry it: 401. */
        UNAUTHORIZED,
        /** No token is set, and purges are not opened without one: 403. */
        FORBIDDEN

    }

    private static final String BEARER = "Bearer ";

    private final byte @Nullable [] tokenDigest;

    private final boolean unauthenticated;

    public PurgeAccess(PurgeAccessProperties properties) {
        String token = properties.getPurgeToken();
        this.tokenDigest = StringUtils.hasText(token) ? digest(token) : null;
        this.unauthenticated = properties.isPurgeUnauthenticated();
    }

    /** The verdict on a purge that carried {@code authorization}, or none. */
    public Verdict judge(@Nullable String authorization) {
        if (tokenDigest == null) {
            return unauthenticated ? Verdict.ALLOWED : Verdict.FORBIDDEN;
        }
        if (authorization == null || !authorization.regionMatches(true, 0, BEARER, 0, BEARER.length())) {
            return Verdict.UNAUTHORIZED;
        }
        // Digests of equal length, compared in constant time: neither the token's
        // characters nor its length show in how long a wrong guess takes.
        byte[] given = digest(authorization.substring(BEARER.length()).trim());
        return MessageDigest.isEqual(tokenDigest, given) ? Verdict.ALLOWED : Verdict.UNAUTHORIZED;
    }

    /** What the log says at startup of who may purge. */
    public String describe(String endpointPath) {
        if (tokenDigest != null) {
            return "Purges through " + endpointPath + " need Authorization: Bearer <memcached.cache.purge-token>";
        }
        if (unauthenticated) {
            return "Purges through " + endpointPath
                    + " need no token (memcached.cache.purge-unauthenticated=true): anyone who reaches the management port may purge";
        }
        return "Purges through " + endpointPath
                + " are refused: set memcached.cache.purge-token, or memcached.cache.purge-unauthenticated=true";
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        }
        catch (NoSuchAlgorithmException ex) {
            // Every Java platform has SHA-256.
            throw new IllegalStateException(ex);
        }
    }

}
