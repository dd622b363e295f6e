package dev.cachegateway.demo.support;

/**
 * The purge token the tests' gateways are started with, and the header that carries it.
 */
public final class PurgeToken {

    public static final String TOKEN = "test-purge-token";

    /** The setting that gives a gateway the token. */
    public static final String SETTING = "--memcached.cache.purge-token=" + TOKEN;

    /** The value of the {@code Authorization} header of a purge. */
    public static final String BEARER = "Bearer " + TOKEN;

    private PurgeToken() {
    }

}
