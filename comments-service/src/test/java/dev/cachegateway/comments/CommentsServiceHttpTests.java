package dev.cachegateway.comments;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.Collections;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.context.SpringBootTest.WebEnvironment;
import org.springframework.boot.test.web.server.LocalServerPort;

/**
 * The service over real HTTP, where Tomcat's own parsing and error pages take part.
 */
@SpringBootTest(webEnvironment = WebEnvironment.RANDOM_PORT)
class CommentsServiceHttpTests {

    static final String COMMENT = "{\"id\":2,\"user_id\":\"paul\",\"body\":\"this is a test comment to see how this thing works.\"}";

    @LocalServerPort
    int port;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void servesTheFourEndpointsWithExactBytesAndHeaders() throws Exception {
        String collection = "[" + String.join(",", Collections.nCopies(25, COMMENT)) + "]";

        assertExactly(get("/api/v1/comments/1"), COMMENT, "public, max-age=60");
        assertExactly(get("/api/v1/comments/1/no_cache"), COMMENT, "no-store");
        assertExactly(get("/api/v1/comments/users/1"), collection, "public, max-age=60");
        assertExactly(get("/api/v1/comments/users/1/no_cache"), collection, "no-store");
    }

    @Test
    void answersHeadWithTheHeadersAndNoBody() throws Exception {
        HttpResponse<byte[]> response = http.send(
                request("/api/v1/comments/1").method("HEAD", HttpRequest.BodyPublishers.noBody()).build(),
                HttpResponse.BodyHandlers.ofByteArray());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Length")).hasValue("86");
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void answersPostWithJsonMethodNotAllowedAndAllow() throws Exception {
        HttpResponse<String> response = http.send(
                request("/api/v1/comments/1").POST(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(405);
        assertThat(response.headers().firstValue("Allow")).hasValue("GET");
        assertThat(response.body()).contains("\"status\":405").doesNotContain("Exception");
    }

    @Test
    void answersAnOverlongUrlWithJsonNotFound() throws Exception {
        HttpResponse<String> response = http.send(request("/api/v1/comments/1/" + "a".repeat(16_000)).build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(404);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/problem+json");
    }

    @ParameterizedTest
    @ValueSource(strings = { "/api/v1/comments/1%00", "/api/v1/comments/%2F", "/api/v1/comments/%zz",
            "/api/v1/comments/a|b", "/api/v1/comments/{1}", "/api/v1/comments/1\u0001" })
    void answersJunkInThePathWithJsonBadRequestAndNoStackTrace(String path) throws IOException {
        String response = raw("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 400 ")
            .contains("Content-Type: application/problem+json")
            .contains("\"status\":400")
            .doesNotContain("Exception")
            .doesNotContain("at org.");
    }

    @Test
    void answersARequestLineOverTheHeaderLimitWithJsonBadRequest() throws IOException {
        String response = raw("GET /api/v1/comments/" + "a".repeat(70_000) + " HTTP/1.1\r\nHost: localhost\r\n\r\n");

        assertThat(response).startsWith("HTTP/1.1 400 ").contains("\"status\":400").doesNotContain("Exception");
    }

    @Test
    void servesAThousandRequestsOnOneConnection() throws IOException {
        String request = "GET /api/v1/comments/1/no_cache HTTP/1.1\r\nHost: localhost\r\n\r\n";
        String last = "GET /api/v1/comments/1/no_cache HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n";

        String responses = raw(request.repeat(999) + last);

        assertThat(responses.split("HTTP/1.1 200 ", -1)).hasSize(1001);
        assertThat(responses.indexOf("Connection: close")).isGreaterThan(responses.lastIndexOf("HTTP/1.1 200 "));
    }

    @Test
    void exposesHealthOnTheAppPort() throws Exception {
        HttpResponse<String> response = http.send(request("/actuator/health").build(),
                HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).contains("\"status\":\"UP\"");
    }

    private void assertExactly(HttpResponse<byte[]> response, String body, String cacheControl) {
        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.body()).isEqualTo(body.getBytes(StandardCharsets.UTF_8));
        assertThat(response.headers().firstValue("Content-Type")).hasValue("application/json");
        assertThat(response.headers().firstValue("Content-Length")).hasValue(String.valueOf(body.length()));
        assertThat(response.headers().firstValue("Cache-Control")).hasValue(cacheControl);
    }

    private HttpResponse<byte[]> get(String path) throws Exception {
        return http.send(request(path).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(URI.create("http://localhost:" + port + path));
    }

    // A plain socket, because HTTP clients refuse to send the malformed requests this
    // test is about.
    private String raw(String request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(5_000);
            OutputStream out = socket.getOutputStream();
            out.write(request.getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.ISO_8859_1);
        }
    }

}
