package dev.cachegateway.gateway.digest;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * MD5, for identity rather than security: the ETags of stored bytes, and libmemcached's
 * Ketama points and key hashes, which must match libmemcached's to the bit.
 */
public final class Md5 {

    // Cloned for each digest: a clone costs a fraction of getInstance's provider lookup,
    // which every hit would pay.
    private static final MessageDigest PROTOTYPE = prototype();

    private Md5() {
    }

    /** The 16-byte MD5 digest of {@code bytes}. */
    public static byte[] digest(byte[] bytes) {
        try {
            return ((MessageDigest) PROTOTYPE.clone()).digest(bytes);
        }
        catch (CloneNotSupportedException ex) {
            throw new IllegalStateException("The JDK's MD5 can be cloned", ex);
        }
    }

    private static MessageDigest prototype() {
        try {
            return MessageDigest.getInstance("MD5");
        }
        catch (NoSuchAlgorithmException ex) {
            throw new IllegalStateException("Every Java platform has MD5", ex);
        }
    }

}
