package dev.cachegateway.gateway.cache.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;

import dev.cachegateway.gateway.cache.response.CapturedResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * An answer as an HTTP/1.1 message, the way OpenResty's srcache stores it in memcached:
 * {@code HTTP/1.1 200 OK}, a {@code Name: value} line per header, an empty line, the
 * body; every line ends with CRLF. No Content-Length: memcached frames the item, and each
 * reader frames its own answer.
 */
final class HttpMessage {

    private static final byte[] END_OF_HEADERS = { '\r', '\n', '\r', '\n' };

    private static final byte[] CRLF = { '\r', '\n' };

    private static final String SEPARATORS = "()<>@,;:\\\"/[]?={}";

    // Headers that take more than 64 KB are not an answer anyone stores.
    private static final int MAX_HEAD = 64 * 1024;

    private HttpMessage() {
    }

    static byte[] encode(HttpStatusCode status, HttpHeaders headers, byte[] body) {
        StringBuilder head = new StringBuilder(256).append("HTTP/1.1 ").append(status.value());
        HttpStatus known = HttpStatus.resolve(status.value());
        head.append(' ').append(known != null ? known.getReasonPhrase() : "").append("\r\n");
        headers.forEach((name, values) -> {
            for (String value : values) {
                head.append(name).append(": ").append(value).append("\r\n");
            }
        });
        head.append("\r\n");
        byte[] headBytes = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        ByteArrayOutputStream item = new ByteArrayOutputStream(headBytes.length + body.length);
        item.writeBytes(headBytes);
        item.writeBytes(body);
        return item.toByteArray();
    }

    /**
     * The answer {@code bytes} hold, or empty when they are not an HTTP/1.x response
     * message.
     */
    static Optional<CapturedResponse> decode(byte[] bytes) {
        // Every hit of a whole answer comes through here, so the head is read as bytes,
        // line by line, with no splitting, pattern or stream: a body hit has no such
        // step, and this one must stay cheap beside it.
        int end = indexOf(bytes, END_OF_HEADERS, Math.min(bytes.length, MAX_HEAD + END_OF_HEADERS.length));
        if (end < 0) {
            return Optional.empty();
        }
        int lineEnd = indexOf(bytes, CRLF, end + CRLF.length);
        Optional<HttpStatusCode> status = status(new String(bytes, 0, lineEnd, StandardCharsets.ISO_8859_1));
        if (status.isEmpty()) {
            return Optional.empty();
        }
        HttpHeaders headers = new HttpHeaders();
        for (int line = lineEnd + CRLF.length; line < end + CRLF.length; line = lineEnd + CRLF.length) {
            lineEnd = indexOf(bytes, CRLF, line, end + CRLF.length);
            int colon = nameEnd(bytes, line, lineEnd);
            // A control character in a value (a bare LF above all) would split the header
            // when a hit is written.
            if (colon <= line || bytes[colon] != ':' || hasControl(bytes, colon + 1, lineEnd)) {
                return Optional.empty();
            }
            int valueStart = colon + 1;
            int valueEnd = lineEnd;
            while (valueStart < valueEnd && isBlank(bytes[valueStart])) {
                valueStart++;
            }
            while (valueEnd > valueStart && isBlank(bytes[valueEnd - 1])) {
                valueEnd--;
            }
            headers.add(new String(bytes, line, colon - line, StandardCharsets.ISO_8859_1),
                    new String(bytes, valueStart, valueEnd - valueStart, StandardCharsets.ISO_8859_1));
        }
        byte[] body = Arrays.copyOfRange(bytes, end + END_OF_HEADERS.length, bytes.length);
        return Optional.of(new CapturedResponse(status.get(), headers, body));
    }

    // "HTTP/1.1 200 OK", "HTTP/1.0 404" and the like.
    private static Optional<HttpStatusCode> status(String line) {
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
            return Optional.empty();
        }
        int value = 0;
        for (int i = 9; i < 12; i++) {
            char c = line.charAt(i);
            if (c < '0' || c > '9') {
                return Optional.empty();
            }
            value = value * 10 + (c - '0');
        }
        if (line.length() > 12 && line.charAt(12) != ' ') {
            return Optional.empty();
        }
        return value >= 100 ? Optional.of(HttpStatusCode.valueOf(value)) : Optional.empty();
    }

    // Where a header name's token characters end in [from, to): at its colon in a
    // well-formed line.
    private static int nameEnd(byte[] bytes, int from, int to) {
        int i = from;
        while (i < to && isTokenChar(bytes[i])) {
            i++;
        }
        return i < to ? i : from;
    }

    private static boolean isTokenChar(byte c) {
        return c > 32 && c < 127 && SEPARATORS.indexOf(c) < 0;
    }

    private static boolean hasControl(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] >= 0 && bytes[i] < 32 && bytes[i] != '\t' || bytes[i] == 127) {
                return true;
            }
        }
        return false;
    }

    private static boolean isBlank(byte c) {
        return c == ' ' || c == '\t';
    }

    private static int indexOf(byte[] bytes, byte[] wanted, int limit) {
        return indexOf(bytes, wanted, 0, limit);
    }

    private static int indexOf(byte[] bytes, byte[] wanted, int from, int limit) {
        outer: for (int i = from; i <= limit - wanted.length; i++) {
            for (int j = 0; j < wanted.length; j++) {
                if (bytes[i + j] != wanted[j]) {
                    continue outer;
                }
            }
            return i;
        }
        return -1;
    }

}
