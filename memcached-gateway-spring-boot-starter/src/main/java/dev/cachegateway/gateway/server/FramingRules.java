package dev.cachegateway.gateway.server;

import java.util.List;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import org.jspecify.annotations.Nullable;

/**
 * Where a request ends, by RFC 9112 section 6, read the one way the backend will read it
 * too. Netty's decoder has already refused what it cannot parse (a Content-Length list,
 * both lengths with chunked, Transfer-Encoding in HTTP/1.0, folded or misnamed framing
 * headers); what it lets through and these rules refuse is a transfer coding it does not
 * know. A Content-Length next to one, or a second coding after chunked, would frame the
 * body one way here and another at a backend that reads the codings differently.
 */
final class FramingRules {

    private FramingRules() {
    }

    /** Why the request's length is ambiguous, or null if it is not. */
    static @Nullable String problem(HttpRequest request) {
        HttpHeaders headers = request.headers();
        List<String> lengths = headers.getAll(HttpHeaderNames.CONTENT_LENGTH);
        if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            if (!HttpVersion.HTTP_1_1.equals(request.protocolVersion())) {
                return "Transfer-Encoding is not allowed before HTTP/1.1";
            }
            if (!lengths.isEmpty()) {
                return "Transfer-Encoding and Content-Length together";
            }
            // Every line joined, as a recipient must read them: exactly one coding, and
            // that one chunked.
            String codings = String.join(",", headers.getAll(HttpHeaderNames.TRANSFER_ENCODING));
            if (!codings.trim().equalsIgnoreCase("chunked")) {
                return "A transfer coding other than chunked";
            }
        }
        // One run of digits: no list, no sign, even of equal values. Netty refuses most
        // of these already.
        if (lengths.size() > 1 || (lengths.size() == 1 && !isDigits(lengths.get(0).trim()))) {
            return "Content-Length is not one number";
        }
        return null;
    }

    /**
     * Whether the request has a body to read: chunked, or a Content-Length above zero.
     */
    static boolean hasBody(HttpRequest request) {
        HttpHeaders headers = request.headers();
        if (headers.contains(HttpHeaderNames.TRANSFER_ENCODING)) {
            return true;
        }
        String length = headers.get(HttpHeaderNames.CONTENT_LENGTH);
        return length != null && !isZero(length.trim());
    }

    private static boolean isDigits(String value) {
        if (value.isEmpty() || value.length() > 18) {
            return false;
        }
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                return false;
            }
        }
        return true;
    }

    private static boolean isZero(String digits) {
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) != '0') {
                return false;
            }
        }
        return true;
    }

}
