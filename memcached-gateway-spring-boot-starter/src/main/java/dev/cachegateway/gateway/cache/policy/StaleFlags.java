package dev.cachegateway.gateway.cache.policy;

/**
 * The stale windows in an item's flags, so that they travel with the item and every
 * replica reads them: bits 16-22 hold {@code stale-while-revalidate}, bits 23-30
 * {@code stale-if-error}, each in an 8-bit (7-bit) float of four mantissa bits. The low
 * 16 bits stay the client's (PHP's memcached extension keeps the value's type there,
 * nginx tests its gzip flag), and bit 31 stays clear, since spymemcached reads flags as a
 * signed int. An item with none of these bits set has no stale window, which is what
 * every item written by another client has.
 */
public final class StaleFlags {

    /** The flag bits this class uses; a route's gzip flag must not overlap them. */
    public static final int MASK = 0x7FFF_0000;

    private static final int REVALIDATE_SHIFT = 16;

    private static final int REVALIDATE_CODES = 0x7F;

    private static final int ERROR_SHIFT = 23;

    private static final int ERROR_CODES = 0xFF;

    private StaleFlags() {
    }

    /**
     * The windows as flag bits, each rounded down to what the bits can say, so that none
     * is ever lengthened.
     */
    public static int encode(StaleWindows windows) {
        return code(windows.whileRevalidate(), REVALIDATE_CODES) << REVALIDATE_SHIFT
                | code(windows.ifError(), ERROR_CODES) << ERROR_SHIFT;
    }

    /** The windows an item's flags carry; none for an item whose bits 16-30 are clear. */
    public static StaleWindows decode(int flags) {
        return new StaleWindows(seconds((flags >>> REVALIDATE_SHIFT) & REVALIDATE_CODES),
                seconds((flags >>> ERROR_SHIFT) & ERROR_CODES));
    }

    /** The windows exactly as the flags will carry them. */
    public static StaleWindows rounded(StaleWindows windows) {
        return decode(encode(windows));
    }

    // Codes 0-15 are seconds; above, four bits of exponent e and four of mantissa m mean
    // (16 + m) << (e - 1).
    static long seconds(int code) {
        int exponent = code >>> 4;
        int mantissa = code & 0xF;
        return exponent == 0 ? mantissa : (long) (16 + mantissa) << (exponent - 1);
    }

    // The largest code whose seconds are at most the given ones; codes grow with their
    // seconds.
    static int code(long seconds, int maxCode) {
        int code = 0;
        while (code < maxCode && seconds(code + 1) <= seconds) {
            code++;
        }
        return code;
    }

}
