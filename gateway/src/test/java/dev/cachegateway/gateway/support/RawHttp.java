package dev.cachegateway.gateway.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, for requests that no HTTP client would send: raw control bytes, broken request
 * lines, oversized headers.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** The status line of the answer to {@code request}, or "" if the server closed without answering. */
    public static String statusLine(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return firstLine(socket.getInputStream());
        }
    }

    public static byte[] request(String requestLine, String... headers) {
        StringBuilder text = new StringBuilder(requestLine).append("\r\n");
        for (String header : headers) {
            text.append(header).append("\r\n");
        }
        return text.append("\r\n").toString().getBytes(StandardCharsets.ISO_8859_1);
    }

    private static String firstLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try {
            for (int b = in.read(); b != -1 && b != '\n'; b = in.read()) {
                line.write(b);
            }
        }
        catch (SocketTimeoutException ex) {
            throw new IOException("No answer within 10 s", ex);
        }
        catch (IOException ex) {
            // A reset after a rejected request is an answer of sorts: nothing.
            return line.toString(StandardCharsets.ISO_8859_1).trim();
        }
        return line.toString(StandardCharsets.ISO_8859_1).trim();
    }
}
