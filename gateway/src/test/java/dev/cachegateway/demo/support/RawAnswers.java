package dev.cachegateway.demo.support;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Sends bytes over a plain socket and reads every answer until the server closes the
 * connection (at most 10 s), for requests no HTTP client would send and for the answers
 * that follow them on one connection.
 */
public final class RawAnswers {

    /** One answer: its status, its header fields (names in lower case) and its body. */
    public record Answer(int status, Map<String, String> headers, String body) {

        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public boolean closes() {
            return "close".equalsIgnoreCase(header("connection"));
        }

        @Override
        public String toString() {
            return status + " " + headers + " " + body;
        }
    }

    private RawAnswers() {
    }

    /**
     * Every answer to {@code bytes}, in order; the server must close the connection
     * within 10 s.
     */
    public static List<Answer> exchange(int port, byte[] bytes) throws IOException {
        return exchange(port, bytes, InetAddress.getLoopbackAddress());
    }

    /**
     * As {@link #exchange(int, byte[])}, from a local address of the caller's choice,
     * such as 127.0.0.2.
     */
    public static List<Answer> exchange(int port, byte[] bytes, InetAddress from) throws IOException {
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port, from, 0)) {
            socket.setSoTimeout(10_000);
            socket.getOutputStream().write(bytes);
            socket.getOutputStream().flush();
            InputStream in = socket.getInputStream();
            byte[] buffer = new byte[8192];
            long deadline = System.nanoTime() + 10_000_000_000L;
            for (int n = in.read(buffer); n != -1; n = in.read(buffer)) {
                received.write(buffer, 0, n);
                if (System.nanoTime() > deadline) {
                    throw new IOException("The connection stayed open for 10 s");
                }
            }
        }
        catch (SocketTimeoutException ex) {
            throw new IOException(
                    "No end of the answers within 10 s, after: " + received.toString(StandardCharsets.ISO_8859_1), ex);
        }
        catch (IOException ex) {
            // A reset after a refused request ends the answers as a close does.
        }
        return parse(received.toString(StandardCharsets.ISO_8859_1));
    }

    private static List<Answer> parse(String text) {
        List<Answer> answers = new ArrayList<>();
        int at = 0;
        while (at < text.length()) {
            int headEnd = text.indexOf("\r\n\r\n", at);
            if (headEnd < 0) {
                throw new IllegalStateException("An answer without an end of head: " + text.substring(at));
            }
            String[] lines = text.substring(at, headEnd).split("\r\n");
            int status = Integer.parseInt(lines[0].split(" ", 3)[1]);
            Map<String, String> headers = new LinkedHashMap<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT),
                        lines[i].substring(colon + 1).trim());
            }
            at = headEnd + 4;
            String length = headers.get("content-length");
            int end = status < 200 ? at : length != null ? at + Integer.parseInt(length) : text.length();
            if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
                StrictHttp.Reading body = StrictHttp
                    .read(("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n" + text.substring(at))
                        .getBytes(StandardCharsets.ISO_8859_1));
                answers.add(new Answer(status, headers, body.requests().get(0).bodyText()));
                at += body.consumed() - 47;
                continue;
            }
            answers.add(new Answer(status, headers, text.substring(at, Math.min(end, text.length()))));
            at = Math.min(end, text.length());
        }
        return answers;
    }

}
