package dev.cachegateway.gateway.memcached.protocol.meta;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which memcached servers take the meta commands as this package speaks them. memcached
 * 1.6.10 fixed their syntax; 1.5.19 to 1.6.9 have an older {@code mg} with other flags
 * and answers, and anything older answers {@code ERROR}, which spymemcached takes as a
 * broken connection. So support is decided by the version a server reports, never by
 * trying.
 */
public final class MetaCommands {

    private static final Pattern VERSION = Pattern.compile("^(\\d+)\\.(\\d+)\\.(\\d+)");

    private static final int[] FIRST = { 1, 6, 10 };

    private MetaCommands() {
    }

    /**
     * Whether a server that answers {@code version} with {@code version} (what follows
     * {@code VERSION }) takes them. A version this cannot read, as some proxies report,
     * counts as none: {@code get} works everywhere.
     */
    public static boolean supportedBy(String version) {
        Matcher matcher = VERSION.matcher(version.trim());
        if (!matcher.find()) {
            return false;
        }
        for (int part = 0; part < FIRST.length; part++) {
            long number;
            try {
                number = Long.parseLong(matcher.group(part + 1));
            }
            catch (NumberFormatException tooLong) {
                return false;
            }
            if (number != FIRST[part]) {
                return number > FIRST[part];
            }
        }
        return true;
    }

}
