package dev.cachegateway.gateway.cache.response;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import dev.cachegateway.gateway.cache.format.Variants;
import dev.cachegateway.gateway.cache.tag.ItemTags;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import reactor.netty.DisposableServer;
import reactor.netty.http.server.HttpServer;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponseDecorator;

/**
 * An answer written by Reactor Netty, as a client reads it: the headers made once for
 * Netty must give the very bytes that setting them one by one through Spring's headers
 * gives (a decorated response takes that way).
 */
class WireHeadersTests {

    private static final byte[] BODY = "{\"id\":1}".getBytes(StandardCharsets.UTF_8);

    private static final CapturedResponse DATED = new CapturedResponse(HttpStatus.OK, answer(true), BODY);

    private static final CapturedResponse UNDATED = new CapturedResponse(HttpStatus.OK, answer(false), BODY);

    // As a backend answer shared whole with requests that waited for it may come.
    private static final CapturedResponse WITH_LENGTH = new CapturedResponse(HttpStatus.OK, withLength(), BODY);

    // A header name with a space, which Netty's checks refuse.
    private static final CapturedResponse REFUSED = new CapturedResponse(HttpStatus.OK, refused(), BODY);

    private static DisposableServer server;

    private static DisposableServer unchecking;

    @BeforeAll
    static void start() {
        HttpHandler handler = (request, response) -> {
            String path = request.getPath().value();
            CapturedResponse answer = path.contains("undated") ? UNDATED
                    : path.contains("with-length") ? WITH_LENGTH : DATED;
            ServerHttpResponse target = path.startsWith("/decorated") ? new ServerHttpResponseDecorator(response)
                    : response;
            if (path.endsWith("/taken")) {
                // Whether the block was taken: the bytes are the same either way.
                boolean taken = DATED.wire().addTo(target, BODY.length);
                response.getHeaders().set("X-Block-Taken", Boolean.toString(taken));
                return response.setComplete();
            }
            if (path.startsWith("/vary-set")) {
                response.getHeaders().set(HttpHeaders.VARY, "Origin");
            }
            return CapturedResponseWriter.write(request, target, answer);
        };
        server = HttpServer.create().host("127.0.0.1").port(0).handle(new ReactorHttpHandlerAdapter(handler)).bindNow();
        HttpHandler refused = (request, response) -> CapturedResponseWriter.write(request,
                request.getPath().value().startsWith("/decorated") ? new ServerHttpResponseDecorator(response)
                        : response,
                REFUSED);
        unchecking = HttpServer.create()
            .host("127.0.0.1")
            .port(0)
            .httpRequestDecoder(spec -> spec.validateHeaders(false))
            .handle(new ReactorHttpHandlerAdapter(refused))
            .bindNow();
    }

    @AfterAll
    static void stop() {
        server.disposeNow();
        unchecking.disposeNow();
    }

    private static HttpHeaders answer(boolean dated) {
        HttpHeaders headers = new HttpHeaders();
        headers.setContentType(org.springframework.http.MediaType.APPLICATION_JSON);
        headers.set(HttpHeaders.CACHE_CONTROL, "public, max-age=60");
        headers.setETag("\"abc\"");
        headers.add("X-Multi", "one");
        headers.add("X-Multi", "two");
        headers.set(Variants.HEADER, "gzip");
        headers.set(ItemTags.HEADER, "comments user-paul");
        headers.set(HttpHeaders.VARY, "Accept-Encoding");
        if (dated) {
            headers.set(HttpHeaders.DATE, "Sun, 06 Nov 1994 08:49:37 GMT");
        }
        headers.set(HttpHeaders.AGE, "3");
        return headers;
    }

    private static HttpHeaders withLength() {
        HttpHeaders headers = answer(true);
        headers.setContentLength(BODY.length);
        return headers;
    }

    private static HttpHeaders refused() {
        HttpHeaders headers = answer(true);
        headers.set("Bad Name", "x");
        return headers;
    }

    private static String exchange(String method, String path) throws IOException {
        return exchange(server, method, path);
    }

    private static String exchange(DisposableServer to, String method, String path) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", to.port())) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write((method + " " + path + " HTTP/1.1\r\nHost: test\r\nConnection: close\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            ByteArrayOutputStream read = new ByteArrayOutputStream();
            in.transferTo(read);
            return read.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static List<String> headerLines(String response) {
        return Arrays.asList(response.substring(0, response.indexOf("\r\n\r\n")).split("\r\n"));
    }

    @Test
    void writesTheBytesThatSpringsHeadersWrite() throws IOException {
        String written = exchange("GET", "/plain");

        assertThat(written).isEqualTo(exchange("GET", "/decorated"));
        assertThat(headerLines(written)).containsExactly("HTTP/1.1 200 OK", "Content-Type: application/json",
                "Cache-Control: public, max-age=60", "ETag: \"abc\"", "X-Multi: one", "X-Multi: two",
                "Vary: Accept-Encoding", "Date: Sun, 06 Nov 1994 08:49:37 GMT", "Age: 3", "Content-Length: 8",
                "connection: close");
        assertThat(written).endsWith("\r\n\r\n{\"id\":1}");
    }

    @Test
    void writesTheSameAgainFromHeadersMadeBefore() throws IOException {
        String first = exchange("GET", "/plain");

        assertThat(exchange("GET", "/plain")).isEqualTo(first);
    }

    @Test
    void datesAnAnswerWithoutDateAsSpringsHeadersDo() throws IOException {
        List<String> written = headerLines(exchange("GET", "/undated"));
        List<String> decorated = headerLines(exchange("GET", "/decorated-undated"));

        assertThat(written).element(8).asString().startsWith("Date: ");
        assertThat(written.subList(0, 8)).isEqualTo(decorated.subList(0, 8));
        assertThat(written.subList(9, written.size())).isEqualTo(decorated.subList(9, decorated.size()));
    }

    @Test
    void givesHeadTheSameHeadersWithoutTheBody() throws IOException {
        String head = exchange("HEAD", "/plain");

        assertThat(head).isEqualTo(exchange("HEAD", "/decorated")).endsWith("\r\n\r\n");
        assertThat(headerLines(head)).contains("Content-Length: 8");
    }

    @Test
    void takesTheBlockOnReactorNettysOwnResponseAlone() throws IOException {
        assertThat(headerLines(exchange("GET", "/plain/taken"))).contains("X-Block-Taken: true");
        assertThat(headerLines(exchange("GET", "/decorated/taken"))).contains("X-Block-Taken: false");
    }

    @Test
    void sendsOneLengthWhereTheAnswerHadOne() throws IOException {
        String written = exchange("GET", "/with-length");

        assertThat(written).isEqualTo(exchange("GET", "/decorated-with-length"));
        assertThat(headerLines(written)).filteredOn(line -> line.startsWith("Content-Length"))
            .containsExactly("Content-Length: 8");
    }

    @Test
    void sendsAHeaderNettyWouldRefuseWhereTheServerSkipsItsChecks() throws IOException {
        String written = exchange(unchecking, "GET", "/plain");

        assertThat(written).isEqualTo(exchange(unchecking, "GET", "/decorated"));
        assertThat(headerLines(written)).contains("Bad Name: x");
    }

    @Test
    void replacesAHeaderTheResponseHadAlready() throws IOException {
        List<String> written = headerLines(exchange("GET", "/vary-set"));

        assertThat(written).contains("Vary: Accept-Encoding").doesNotContain("Vary: Origin");
    }

}
