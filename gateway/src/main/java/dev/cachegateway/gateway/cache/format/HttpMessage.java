package dev.cachegateway.gateway.cache.format;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;

import dev.cachegateway.gateway.cache.response.CapturedResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;

/**
 * An answer as an HTTP/1.1 message, the way OpenResty's srcache stores it in memcached: {@code HTTP/1.1 200 OK},
 * a {@code Name: value} line per header, an empty line, the body; every line ends with CRLF. No Content-Length:
 * memcached frames the item, and each reader frames its own answer.
 */
final class HttpMessage {

    private static final byte[] END_OF_HEADERS = {'\r', '\n', '\r', '\n'};

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

    /** The answer {@code bytes} hold, or empty when they are not an HTTP/1.x response message. */
    static Optional<CapturedResponse> decode(byte[] bytes) {
        int end = indexOf(bytes, END_OF_HEADERS, Math.min(bytes.length, MAX_HEAD + END_OF_HEADERS.length));
        if (end < 0) {
            return Optional.empty();
        }
        List<String> lines = Arrays.asList(new String(bytes, 0, end, StandardCharsets.ISO_8859_1).split("\r\n"));
        Optional<HttpStatusCode> status = status(lines.get(0));
        if (status.isEmpty()) {
            return Optional.empty();
        }
        HttpHeaders headers = new HttpHeaders();
        for (String line : lines.subList(1, lines.size())) {
            int colon = line.indexOf(':');
            if (colon <= 0 || !isToken(line.substring(0, colon))) {
                return Optional.empty();
            }
            headers.add(line.substring(0, colon), line.substring(colon + 1).trim());
        }
        byte[] body = Arrays.copyOfRange(bytes, end + END_OF_HEADERS.length, bytes.length);
        return Optional.of(new CapturedResponse(status.get(), headers, body));
    }

    // "HTTP/1.1 200 OK", "HTTP/1.0 404" and the like.
    private static Optional<HttpStatusCode> status(String line) {
        if (!line.startsWith("HTTP/1.") || line.length() < 12 || line.charAt(8) != ' ') {
            return Optional.empty();
        }
        String code = line.substring(9, 12);
        if (!code.chars().allMatch(Character::isDigit) || line.length() > 12 && line.charAt(12) != ' ') {
            return Optional.empty();
        }
        int value = Integer.parseInt(code);
        return value >= 100 ? Optional.of(HttpStatusCode.valueOf(value)) : Optional.empty();
    }

    private static boolean isToken(String name) {
        return name.chars().allMatch(c -> c > 32 && c < 127 && "()<>@,;:\\\"/[]?={}".indexOf(c) < 0);
    }

    private static int indexOf(byte[] bytes, byte[] wanted, int limit) {
        outer:
        for (int i = 0; i <= limit - wanted.length; i++) {
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
