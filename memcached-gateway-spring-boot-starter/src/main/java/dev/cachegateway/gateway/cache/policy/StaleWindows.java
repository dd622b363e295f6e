package dev.cachegateway.gateway.cache.policy;

/**
 * How long past its freshness an item may still be served (RFC 5861): while it is
 * refreshed in the background ({@code stale-while-revalidate}), and when the backend
 * fails ({@code stale-if-error}). The item lives in memcached for its freshness plus the
 * longer of the two.
 *
 * @param whileRevalidate seconds a stale item is served while one gateway refreshes it
 * @param ifError seconds a stale item is served when the backend fails
 */
public record StaleWindows(long whileRevalidate, long ifError) {

    /**
     * No stale answers: the item lives for its freshness alone, as every item did before
     * stale windows.
     */
    public static final StaleWindows NONE = new StaleWindows(0, 0);

    public StaleWindows {
        whileRevalidate = Math.max(0, whileRevalidate);
        ifError = Math.max(0, ifError);
    }

    /**
     * The windows an answer asks for, else the route's. {@code must-revalidate},
     * {@code proxy-revalidate} and {@code s-maxage} (which implies proxy-revalidate in a
     * shared cache, RFC 9111 5.2.2.10) forbid stale answers.
     */
    static StaleWindows of(CacheControlDirectives cacheControl, StaleWindows route) {
        if (cacheControl.has("must-revalidate") || cacheControl.has("proxy-revalidate")
                || cacheControl.has("s-maxage")) {
            return NONE;
        }
        long revalidate = cacheControl.seconds("stale-while-revalidate");
        long error = cacheControl.seconds("stale-if-error");
        return new StaleWindows(revalidate >= 0 ? revalidate : route.whileRevalidate(),
                error >= 0 ? error : route.ifError());
    }

    /** How long the item outlives its freshness in memcached. */
    public long longest() {
        return Math.max(whileRevalidate, ifError);
    }

    /** The same windows, neither longer than {@code seconds}. */
    StaleWindows atMost(long seconds) {
        return new StaleWindows(Math.min(whileRevalidate, seconds), Math.min(ifError, seconds));
    }
}
