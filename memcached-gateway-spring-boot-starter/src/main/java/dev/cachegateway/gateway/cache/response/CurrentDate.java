package dev.cachegateway.gateway.cache.response;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

import org.springframework.http.HttpHeaders;

/**
 * The {@code Date} of the current second as an IMF-fixdate (RFC 9110 5.6.7). It changes
 * once a second, so it is formatted once a second and shared by every answer written in
 * it, as nginx keeps its time formatted.
 */
public final class CurrentDate {

    private static final CurrentDate SHARED = new CurrentDate();

    /**
     * Dates an answer that has no {@code Date}, as RFC 9110 6.6.1 asks of a recipient
     * with a clock that stores or forwards it: a hit, and a backend's answer that came
     * without one.
     */
    public static void addIfMissing(HttpHeaders headers) {
        if (!headers.containsHeader(HttpHeaders.DATE)) {
            headers.set(HttpHeaders.DATE, now());
        }
    }

    /** The {@code Date} of now. */
    static String now() {
        return SHARED.at(System.currentTimeMillis());
    }

    private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
        .ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
        .withZone(ZoneOffset.UTC);

    private volatile Formatted last = new Formatted(Long.MIN_VALUE, "");

    /** The date of the second {@code nowMillis} falls in. */
    String at(long nowMillis) {
        long second = Math.floorDiv(nowMillis, 1000);
        Formatted formatted = last;
        if (formatted.second() != second) {
            formatted = new Formatted(second, IMF_FIXDATE.format(Instant.ofEpochSecond(second)));
            last = formatted;
        }
        return formatted.value();
    }

    private record Formatted(long second, String value) {
    }

}
