package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 over a plain socket, for requests that no HTTP client would send: raw control
 * bytes, broken request lines, oversized headers.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /**
     * The status line of the answer to {@code request}, or "" if the server closed
     * without answering.
     */
    public static String statusLine(int port, byte[] request) throws IOException {
        try (Socket socket = new Socket("localhost", port)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(request);
            socket.getOutputStream().flush();
            return firstLine(socket.getInputStream());
        }
    }

    /**
     * One answer read off a connection: the head up to the blank line, then
     * Content-Length bytes of body.
     */
    public static String readAnswer(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        while (!head.toString(StandardCharsets.ISO_8859_1).endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b == -1) {
                throw new IOException("Connection closed after: " + head.toString(StandardCharsets.ISO_8859_1));
            }
            head.write(b);
        }
        String text = head.toString(StandardCharsets.ISO_8859_1);
        int length = text.lines()
            .filter(line -> line.toLowerCase().startsWith("content-length:"))
            .mapToInt(line -> Integer.parseInt(line.substring(15).trim()))
            .findFirst()
            .orElse(0);
        return text + new String(in.readNBytes(length), StandardCharsets.ISO_8859_1);
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
