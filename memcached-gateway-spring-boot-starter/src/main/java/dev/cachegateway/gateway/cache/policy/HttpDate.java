package dev.cachegateway.gateway.cache.policy;

import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Locale;
import java.util.OptionalLong;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An HTTP-date as RFC 9110 (5.6.7) defines it, parsed strictly: IMF-fixdate
 * ({@code Sun, 06 Nov 1994 08:49:37 GMT}) and the two obsolete forms a recipient must
 * still accept, RFC 850 ({@code Sunday, 06-Nov-94 08:49:37 GMT}) and asctime
 * ({@code Sun Nov  6 08:49:37 1994}). Anything else is not a date: Spring's
 * {@code HttpHeaders.getDate()} throws on it, and the JDK's RFC 1123 formatter takes
 * one-digit hours and other zones, which HTTP does not. Names are matched without regard
 * to case, as browsers do.
 */
final class HttpDate {

    private static final String TIME = "(\\d{2}):(\\d{2}):(\\d{2})";

    private static final Pattern IMF_FIXDATE = Pattern.compile(
            "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), (\\d{2}) ([A-Za-z]{3}) (\\d{4}) " + TIME + " GMT",
            Pattern.CASE_INSENSITIVE);

    private static final Pattern RFC_850 = Pattern
        .compile("(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday), (\\d{2})-([A-Za-z]{3})-(\\d{2}) " + TIME
                + " GMT", Pattern.CASE_INSENSITIVE);

    private static final Pattern ASCTIME = Pattern.compile(
            "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun) ([A-Za-z]{3}) (\\d{2}| \\d) " + TIME + " (\\d{4})",
            Pattern.CASE_INSENSITIVE);

    private static final Set<String> DAY_NAMES = Set.of("Mon, ", "Tue, ", "Wed, ", "Thu, ", "Fri, ", "Sat, ", "Sun, ");

    private static final List<String> MONTHS = List.of("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep",
            "oct", "nov", "dec");

    private HttpDate() {
    }

    /** The date in epoch milliseconds, or none if {@code value} is not an HTTP-date. */
    static OptionalLong parse(String value, long nowMillis) {
        if (isPlainImfFixdate(value)) {
            return toMillis(digits(value, 12, 16), value.substring(8, 11), value.substring(5, 7),
                    value.substring(17, 19), value.substring(20, 22), value.substring(23, 25));
        }
        Matcher m = IMF_FIXDATE.matcher(value);
        if (m.matches()) {
            return toMillis(Integer.parseInt(m.group(3)), m.group(2), m.group(1), m.group(4), m.group(5), m.group(6));
        }
        m = RFC_850.matcher(value);
        if (m.matches()) {
            return toMillis(fullYear(Integer.parseInt(m.group(3)), nowMillis), m.group(2), m.group(1), m.group(4),
                    m.group(5), m.group(6));
        }
        m = ASCTIME.matcher(value);
        if (m.matches()) {
            return toMillis(Integer.parseInt(m.group(6)), m.group(1), m.group(2).trim(), m.group(3), m.group(4),
                    m.group(5));
        }
        return OptionalLong.empty();
    }

    // A hit of a whole answer reads the Date it was stored with, nearly always as senders
    // write it, so that form is checked by position before any pattern runs; everything
    // else still meets the patterns.
    private static boolean isPlainImfFixdate(String value) {
        return value.length() == 29 && value.endsWith(" GMT") && DAY_NAMES.contains(value.substring(0, 5))
                && value.charAt(7) == ' ' && value.charAt(11) == ' ' && value.charAt(16) == ' '
                && value.charAt(19) == ':' && value.charAt(22) == ':' && digits(value, 5, 7) >= 0
                && digits(value, 12, 16) >= 0 && digits(value, 17, 19) >= 0 && digits(value, 20, 22) >= 0
                && digits(value, 23, 25) >= 0;
    }

    // The number the ASCII digits in [from, to) write, or -1 if any is not a digit.
    private static int digits(String value, int from, int to) {
        int number = 0;
        for (int i = from; i < to; i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            number = number * 10 + (c - '0');
        }
        return number;
    }

    // RFC 9110: a two-digit year more than 50 years ahead is the latest past year with
    // the same two digits.
    private static int fullYear(int twoDigits, long nowMillis) {
        int thisYear = LocalDateTime.ofEpochSecond(nowMillis / 1000, 0, ZoneOffset.UTC).getYear();
        int year = thisYear - Math.floorMod(thisYear, 100) + twoDigits;
        return year > thisYear + 50 ? year - 100 : year;
    }

    private static OptionalLong toMillis(int year, String month, String day, String hour, String minute,
            String second) {
        int monthIndex = MONTHS.indexOf(month.toLowerCase(Locale.ROOT));
        int seconds = Integer.parseInt(second);
        if (monthIndex < 0 || seconds > 60) {
            return OptionalLong.empty();
        }
        try {
            // The grammar allows a leap second (60); java.time has none, so it counts as
            // the second before.
            LocalDateTime time = LocalDateTime.of(year, monthIndex + 1, Integer.parseInt(day), Integer.parseInt(hour),
                    Integer.parseInt(minute), Math.min(seconds, 59));
            return OptionalLong.of(time.toInstant(ZoneOffset.UTC).toEpochMilli());
        }
        catch (DateTimeException ex) {
            return OptionalLong.empty();
        }
    }

}
