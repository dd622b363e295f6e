package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A strict reading of HTTP/1.1 requests by RFC 9112, as a careful backend would read
 * them: every line ends in CRLF, field names are tokens, a request is framed by exactly
 * one Content-Length of digits or a Transfer-Encoding of exactly chunked (never both),
 * chunk lines are a hex size and extensions. Where RFC 9112 lets a recipient replace
 * obs-fold with spaces, this does so, except in framing fields; leading empty lines are
 * skipped.
 */
public final class StrictHttp {

    private static final Pattern REQUEST_LINE = Pattern
        .compile("([!#$%&'*+\\-.^_`|~0-9A-Za-z]+) +([^\\x00-\\x20\\x7f]+) +(?i:HTTP)/1\\.([0-9])");

    private static final Pattern NAME = Pattern.compile("[!#$%&'*+\\-.^_`|~0-9A-Za-z]+");

    private static final Pattern CHUNK_LINE = Pattern
        .compile("([0-9A-Fa-f]+)([ \\t]*;[^\\x00-\\x08\\x0a-\\x1f\\x7f]*)?");

    /**
     * One request: its method, target, fields (names in lower case), and body without its
     * framing.
     */
    public record Request(String method, String target, List<Map.Entry<String, String>> fields, byte[] body) {

        public String field(String name) {
            return fields.stream()
                .filter(f -> f.getKey().equals(name))
                .map(Map.Entry::getValue)
                .findFirst()
                .orElse(null);
        }

        public String bodyText() {
            return new String(body, StandardCharsets.ISO_8859_1);
        }
    }

    /**
     * The requests read from the start of some bytes, and how reading ended.
     *
     * @param consumed how many bytes the requests took
     * @param error why the bytes after them are no request, or null if they are only
     * incomplete (or none)
     */
    public record Reading(List<Request> requests, int consumed, String error) {
    }

    private final byte[] in;

    private int at;

    private StrictHttp(byte[] in) {
        this.in = in;
    }

    public static Reading read(byte[] bytes) {
        StrictHttp reader = new StrictHttp(bytes);
        List<Request> requests = new ArrayList<>();
        int consumed = 0;
        try {
            while (consumed < bytes.length) {
                reader.at = consumed;
                requests.add(reader.request());
                consumed = reader.at;
            }
            return new Reading(requests, consumed, null);
        }
        catch (Incomplete ex) {
            return new Reading(requests, consumed, null);
        }
        catch (IllegalArgumentException ex) {
            return new Reading(requests, consumed, ex.getMessage());
        }
    }

    private Request request() {
        String line = line();
        while (line.isEmpty()) {
            line = line();
        }
        Matcher start = REQUEST_LINE.matcher(line);
        require(start.matches(), "a bad request line");
        List<Map.Entry<String, String>> fields = fields();
        boolean http10 = start.group(3).equals("0");
        List<String> codings = values(fields, "transfer-encoding");
        List<String> lengths = values(fields, "content-length");
        byte[] body;
        if (!codings.isEmpty()) {
            require(!http10, "Transfer-Encoding in HTTP/1.0");
            require(lengths.isEmpty(), "Transfer-Encoding with Content-Length");
            require(String.join(",", codings).trim().equalsIgnoreCase("chunked"), "a coding other than chunked");
            body = chunks();
        }
        else if (!lengths.isEmpty()) {
            require(lengths.size() == 1 && lengths.get(0).matches("[0-9]{1,18}"), "a bad Content-Length");
            body = bytes(Integer.parseInt(lengths.get(0)));
        }
        else {
            body = new byte[0];
        }
        return new Request(start.group(1), start.group(2), fields, body);
    }

    private List<Map.Entry<String, String>> fields() {
        List<Map.Entry<String, String>> fields = new ArrayList<>();
        for (String line = line(); !line.isEmpty(); line = line()) {
            if (line.charAt(0) == ' ' || line.charAt(0) == '\t') {
                require(!fields.isEmpty(), "whitespace before the first field");
                Map.Entry<String, String> last = fields.remove(fields.size() - 1);
                require(!last.getKey().equals("transfer-encoding") && !last.getKey().equals("content-length"),
                        "a folded framing field");
                fields.add(Map.entry(last.getKey(), (last.getValue() + " " + line.strip()).strip()));
                continue;
            }
            int colon = line.indexOf(':');
            require(colon > 0 && NAME.matcher(line.substring(0, colon)).matches(), "a bad field name");
            String value = line.substring(colon + 1).replaceAll("^[ \\t]+|[ \\t]+$", "");
            require(value.chars().noneMatch(c -> (c < 0x20 && c != '\t') || c == 0x7f), "a control byte in a value");
            fields.add(Map.entry(line.substring(0, colon).toLowerCase(Locale.ROOT), value));
        }
        return fields;
    }

    private byte[] chunks() {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            Matcher chunk = CHUNK_LINE.matcher(line());
            require(chunk.matches(), "a bad chunk line");
            String hex = chunk.group(1).replaceFirst("^0+(?=.)", "");
            require(hex.length() <= 7, "a chunk too large");
            int size = Integer.parseInt(hex, 16);
            if (size == 0) {
                fields();
                return body.toByteArray();
            }
            body.writeBytes(bytes(size));
            require(line().isEmpty(), "chunk data longer than its size");
        }
    }

    private static List<String> values(List<Map.Entry<String, String>> fields, String name) {
        return fields.stream().filter(f -> f.getKey().equals(name)).map(Map.Entry::getValue).toList();
    }

    /** The next line, without its CRLF; a bare CR or LF is an error. */
    private String line() {
        for (int i = at; i < in.length; i++) {
            if (in[i] == '\n') {
                throw new IllegalArgumentException("a bare LF");
            }
            if (in[i] == '\r') {
                if (i + 1 >= in.length) {
                    throw new Incomplete();
                }
                require(in[i + 1] == '\n', "a bare CR");
                String line = new String(in, at, i - at, StandardCharsets.ISO_8859_1);
                at = i + 2;
                return line;
            }
        }
        throw new Incomplete();
    }

    private byte[] bytes(int count) {
        if (in.length - at < count) {
            throw new Incomplete();
        }
        byte[] bytes = java.util.Arrays.copyOfRange(in, at, at + count);
        at += count;
        return bytes;
    }

    private static void require(boolean condition, String problem) {
        if (!condition) {
            throw new IllegalArgumentException(problem);
        }
    }

    /** The bytes end inside a request. */
    private static final class Incomplete extends RuntimeException {

        Incomplete() {
            super(null, null, false, false);
        }

    }

}
