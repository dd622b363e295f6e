package dev.cachegateway.demo;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nasty paths and headers, sent raw to the gateway in front of a real memcached: each
 * gets a clean 2xx or 4xx, never a 5xx, and memcached is left as it was, so no request
 * became a memcached command.
 */
class BadInputTests extends CacheIntegrationTest {

    static Stream<Arguments> corpus() {
        List<Arguments> cases = new ArrayList<>();
        for (String path : List.of("/api/v1/comments/1%0d%0aflush_all", "/api/v1/comments/1%0D%0Aflush_all%0D%0A",
                "/x%0D%0Adelete%20sentinel%0D%0A", "/x%0D%0Aset%20sentinel%200%200%201%0D%0Ax%0D%0A",
                "/api/v1/comments/%0D%0Aquit", "/stats%0D%0A", "/flush_all", "/a%00b", "/%00", "/a%20b", "/a%09b",
                "/a%01%02%03%1F%7F", "/" + "k".repeat(249), "/" + "k".repeat(250),
                "/api/v1/comments/" + "9".repeat(234), "/" + "k".repeat(4_000), "/" + "k".repeat(16_000), "/%zz", "/%",
                "/%4", "/%%", "/%G0", "/api/v1/comments/%", "/%C0%AE%C0%AE/%C0%AE%C0%AE/etc/passwd", "/%C0%AF",
                "/%E0%80%AF", "/%80", "/%FF%FE", "/api/v1/comments/../../../../etc/passwd", "/..", "/%2e%2e/%2e%2e/",
                "/api/v1/%2e%2e/comments/1", "/./././api/v1/comments/1", "//api//v1//comments//1", "///",
                "/api/v1/comments/1;jsessionid=abc", "/api/v1/comments/1?a=%0D%0Aflush_all",
                "/api/v1/comments/1?" + "q=".repeat(1_000), "/a\\b", "/caf\u00c3\u00a9",
                "http://evil.example/api/v1/comments/1", "*")) {
            cases.add(Arguments.of(describe(path), RawHttp.request("GET " + path + " HTTP/1.1", "Host: localhost")));
        }
        cases.add(raw("raw CR in the path", "GET /x\rflush_all HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw LF in the path", "GET /x\nflush_all HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw CRLF then a command", "GET /x\r\nflush_all HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw NUL in the path", "GET /a\0b HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw space in the path", "GET /x flush_all HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw tab in the path", "GET /a\tb HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("raw control byte in the path", "GET /a\u0001b HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("a memcached command as the method", "FLUSH_ALL / HTTP/1.1\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("an unknown HTTP version", "GET /api/v1/comments/1 HTTP/9.9\r\nHost: localhost\r\n\r\n"));
        cases.add(raw("a header split by CRLF", "GET /api/v1/comments/1 HTTP/1.1\r\nX-A: a\r\nflush_all\r\n\r\n"));
        cases.add(header("a 16 KB header", "X-Big: " + "x".repeat(16_000)));
        cases.add(header("a 64 KB cookie", "Cookie: c=" + "x".repeat(65_000)));
        cases.add(header("Authorization: Bearer", "Authorization: Bearer abc"));
        cases.add(header("authorization in lower case", "authorization: Basic dTpw"));
        cases.add(header("an empty Authorization", "Authorization:"));
        cases.add(header("Authorization with CR", "Authorization: Bearer a\rb"));
        cases.add(header("Authorization with NUL", "Authorization: Bearer a\0b"));
        cases.add(header("two Authorization headers", "Authorization: a", "Authorization: b"));
        cases.add(header("an X-Cache request header", "X-Cache: HIT"));
        cases.add(raw("a GET with a body", "GET /api/v1/comments/1 HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Length: 17\r\n\r\nflush_all\r\nquit\r\n"));
        cases.add(raw("a chunked GET", "GET /api/v1/comments/1 HTTP/1.1\r\nHost: localhost\r\n"
                + "Transfer-Encoding: chunked\r\n\r\n9\r\nflush_all\r\n0\r\n\r\n"));
        cases.add(raw("conflicting body lengths", "GET /api/v1/comments/1 HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"));
        cases.add(header("a header name with a space", "Bad Name: x"));
        List<String> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add("X-H" + i + ": " + i);
        }
        cases.add(header("300 headers", many.toArray(String[]::new)));
        return cases.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("corpus")
    void answersCleanlyAndLeavesMemcachedAlone(String name, byte[] request) throws Exception {
        raw.set("sentinel", 0, 0, bytes("still here"));
        long flushes = raw.stat("cmd_flush");
        // Misses only: the gateway deletes its own lock items (hits); a deleted sentinel
        // would show above.
        long deletes = raw.stat("delete_misses");

        String status = RawHttp.statusLine(port, request);

        if (!status.isEmpty()) {
            assertThat(status).as(name).matches("HTTP/1\\.[01] [24]\\d\\d.*");
        }
        assertThat(raw.get("sentinel")).as("sentinel after %s", name).isNotNull();
        assertThat(raw.stat("cmd_flush")).isEqualTo(flushes);
        assertThat(raw.stat("delete_misses")).isEqualTo(deletes);
    }

    @Test
    void keepsServingHitsAfterTheWholeCorpus() throws Exception {
        corpus().forEach(arguments -> {
            try {
                RawHttp.statusLine(port, (byte[]) arguments.get()[1]);
            }
            catch (Exception ex) {
                throw new AssertionError(ex);
            }
        });
        raw.set("/api/v1/comments/1", 0, 0, bytes("{}"));

        client.get()
            .uri("/api/v1/comments/1")
            .exchange()
            .expectStatus()
            .isOk()
            .expectHeader()
            .valueEquals("X-Cache", "HIT");
    }

    private static Arguments raw(String name, String request) {
        return Arguments.of(name, request.getBytes(StandardCharsets.ISO_8859_1));
    }

    private static Arguments header(String name, String... headers) {
        String[] all = new String[headers.length + 1];
        all[0] = "Host: localhost";
        System.arraycopy(headers, 0, all, 1, headers.length);
        return Arguments.of(name, RawHttp.request("GET /api/v1/comments/1 HTTP/1.1", all));
    }

    private static String describe(String path) {
        return path.length() > 60 ? path.substring(0, 40) + "... (" + path.length() + " bytes)" : path;
    }

}
