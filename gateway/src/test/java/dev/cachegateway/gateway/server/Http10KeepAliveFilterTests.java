package dev.cachegateway.gateway.server;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.cachegateway.demo.support.CacheIntegrationTest;
import dev.cachegateway.demo.support.RawHttp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * An HTTP/1.0 client that asks for keep-alive, as {@code ab -k} does, gets its connection
 * kept, on a hit and on a proxied answer alike.
 */
class Http10KeepAliveFilterTests extends CacheIntegrationTest {

    @ParameterizedTest
    @ValueSource(strings = { "/api/v1/comments/1", "/api/v1/comments/1/no_cache" })
    void answersTwoRequestsOnOneHttp10Connection(String path) throws Exception {
        raw.set("/api/v1/comments/1", 0, 0, bytes("{\"cached\":true}"));
        String request = "GET " + path + " HTTP/1.0\r\nHost: localhost\r\nConnection: Keep-Alive\r\n\r\n";

        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(5_000);
            for (int i = 0; i < 2; i++) {
                socket.getOutputStream().write(request.getBytes(StandardCharsets.US_ASCII));
                String head = RawHttp.readAnswer(socket.getInputStream());
                assertThat(head).as("answer %d", i + 1)
                    .contains(" 200 ")
                    .containsIgnoringCase("connection: keep-alive");
            }
        }
    }

    @Test
    void closesAnHttp10ConnectionThatDoesNotAskForKeepAlive() throws Exception {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(5_000);
            socket.getOutputStream()
                .write("GET /api/v1/comments/1/no_cache HTTP/1.0\r\nHost: localhost\r\n\r\n"
                    .getBytes(StandardCharsets.US_ASCII));
            String head = RawHttp.readAnswer(socket.getInputStream());

            assertThat(head).contains(" 200 ").doesNotContainIgnoringCase("keep-alive");
            assertThat(socket.getInputStream().read()).isEqualTo(-1);
        }
    }

}
