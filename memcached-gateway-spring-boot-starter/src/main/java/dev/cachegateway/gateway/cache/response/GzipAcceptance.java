package dev.cachegateway.gateway.cache.response;

import java.util.Locale;

import org.springframework.http.HttpHeaders;

/**
 * Whether a client takes a gzip body. A gzip item is served as gzip, since memcached
 * holds only the compressed bytes, so a client that cannot decode it gets the backend's
 * answer instead, never bytes it cannot read.
 */
public final class GzipAcceptance {

    private GzipAcceptance() {
    }

    /**
     * Whether {@code response} may go to a request with these headers: any but a gzip
     * one, unless it takes gzip.
     */
    public static boolean canTake(HttpHeaders requestHeaders, CapturedResponse response) {
        return canTake(requestHeaders, response.wire().gzip());
    }

    /** Whether a body, gzip or not, may go to a request with these headers. */
    public static boolean canTake(HttpHeaders requestHeaders, boolean gzip) {
        return !gzip || acceptsGzip(requestHeaders);
    }

    /**
     * Whether a request's {@code Accept-Encoding} takes gzip: {@code gzip},
     * {@code x-gzip} or {@code *} with a weight above 0. Without the header, no: RFC 9110
     * would allow any coding, but clients such as curl without {@code --compressed} do
     * not decode it.
     */
    public static boolean acceptsGzip(HttpHeaders requestHeaders) {
        Boolean star = null;
        for (String coding : requestHeaders.getValuesAsList(HttpHeaders.ACCEPT_ENCODING)) {
            String[] parts = coding.split(";");
            String name = parts[0].trim().toLowerCase(Locale.ROOT);
            boolean accepted = parts.length < 2 || !isZeroWeight(parts[1]);
            if (name.equals("gzip") || name.equals("x-gzip")) {
                return accepted;
            }
            if (name.equals("*")) {
                star = accepted;
            }
        }
        return Boolean.TRUE.equals(star);
    }

    private static boolean isZeroWeight(String parameter) {
        String weight = parameter.trim().toLowerCase(Locale.ROOT);
        return weight.startsWith("q=") && weight.substring(2).trim().matches("0(\\.0{0,3})?");
    }

}
