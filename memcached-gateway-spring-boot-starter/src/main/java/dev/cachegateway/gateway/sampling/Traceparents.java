package dev.cachegateway.gateway.sampling;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

import org.jspecify.annotations.Nullable;

/**
 * W3C {@code traceparent} values: the sampled flag of one a request came with, and one of
 * random ids and flag {@code 00} for a request the gateway did not sample, so that its
 * backend does not start a trace of its own either.
 */
final class Traceparents {

    static final String HEADER = "traceparent";

    private static final HexFormat HEX = HexFormat.of();

    private Traceparents() {
    }

    /**
     * Whether {@code header} says sampled; {@code null} where it is not a valid
     * {@code traceparent}, which the tracer ignores as well (and starts a trace of its
     * own).
     */
    static @Nullable Boolean sampled(String header) {
        // version "-" trace-id "-" parent-id "-" flags; a later version may add fields.
        if (header.length() < 55 || (header.length() > 55 && header.charAt(55) != '-') || header.charAt(2) != '-'
                || header.charAt(35) != '-' || header.charAt(52) != '-' || header.startsWith("ff")
                || (header.startsWith("00") && header.length() != 55)) {
            return null;
        }
        if (!hex(header, 0, 2) || !hex(header, 3, 35) || !hex(header, 36, 52) || !hex(header, 53, 55)
                || zeros(header, 3, 35) || zeros(header, 36, 52)) {
            return null;
        }
        return (Character.digit(header.charAt(54), 16) & 1) == 1;
    }

    /** A traceparent of random ids, not sampled. */
    static String unsampled() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = random.nextLong();
        long low = random.nextLong();
        long span = random.nextLong();
        // All-zero ids are invalid; one in 2^64 each.
        return "00-" + HEX.toHexDigits(high) + HEX.toHexDigits(high == 0 && low == 0 ? 1 : low) + "-"
                + HEX.toHexDigits(span == 0 ? 1 : span) + "-00";
    }

    private static boolean hex(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if ((c < '0' || c > '9') && (c < 'a' || c > 'f')) {
                return false;
            }
        }
        return true;
    }

    private static boolean zeros(String value, int from, int to) {
        for (int i = from; i < to; i++) {
            if (value.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

}
