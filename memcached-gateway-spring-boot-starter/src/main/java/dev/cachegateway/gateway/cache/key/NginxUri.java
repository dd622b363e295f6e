package dev.cachegateway.gateway.cache.key;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;

import org.jspecify.annotations.Nullable;

/**
 * nginx's {@code $uri}: the request path percent-decoded, with {@code .} and {@code ..}
 * segments resolved and repeated slashes merged ({@code merge_slashes on}). Paths nginx
 * would reject with 400 (bad percent-encoding, {@code ..} above the root) have no
 * {@code $uri}; nor do paths that do not decode to UTF-8 text, because a memcached key is
 * sent as UTF-8.
 */
final class NginxUri {

    private NginxUri() {
    }

    /** The normalised, decoded path, or null if it has none. */
    static @Nullable String of(String rawPath) {
        if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
            return null;
        }
        if (isAlreadyNormal(rawPath)) {
            return rawPath;
        }
        byte[] decoded = percentDecode(rawPath.getBytes(StandardCharsets.UTF_8));
        return decoded != null ? utf8(normalise(decoded)) : null;
    }

    // Most paths hold no escape, dot segment or double slash: they are their own $uri.
    private static boolean isAlreadyNormal(String path) {
        for (int i = 0; i < path.length(); i++) {
            char c = path.charAt(i);
            if (c == '%' || c > 0x7e || (c == '/' && i + 1 < path.length()
                    && (path.charAt(i + 1) == '/' || path.charAt(i + 1) == '.'))) {
                return false;
            }
        }
        return true;
    }

    private static byte @Nullable [] percentDecode(byte[] raw) {
        ByteBuffer out = ByteBuffer.allocate(raw.length);
        for (int i = 0; i < raw.length; i++) {
            if (raw[i] != '%') {
                out.put(raw[i]);
                continue;
            }
            int high = i + 2 < raw.length ? Character.digit(raw[i + 1], 16) : -1;
            int low = high >= 0 ? Character.digit(raw[i + 2], 16) : -1;
            if (low < 0) {
                return null;
            }
            out.put((byte) (high * 16 + low));
            i += 2;
        }
        byte[] decoded = new byte[out.position()];
        out.flip().get(decoded);
        return decoded;
    }

    private static byte @Nullable [] normalise(byte[] path) {
        Deque<byte[]> segments = new ArrayDeque<>();
        boolean endsWithSlash = false;
        int start = 1;
        for (int i = 1; i <= path.length; i++) {
            if (i < path.length && path[i] != '/') {
                continue;
            }
            int length = i - start;
            boolean dot = length == 1 && path[start] == '.';
            boolean dotDot = length == 2 && path[start] == '.' && path[start + 1] == '.';
            if (dotDot && segments.pollLast() == null) {
                return null;
            }
            if (length > 0 && !dot && !dotDot) {
                byte[] segment = new byte[length];
                System.arraycopy(path, start, segment, 0, length);
                segments.addLast(segment);
            }
            endsWithSlash = i < path.length || length == 0 || dot || dotDot;
            start = i + 1;
        }
        ByteBuffer out = ByteBuffer.allocate(path.length + 1);
        for (byte[] segment : segments) {
            out.put((byte) '/').put(segment);
        }
        if (segments.isEmpty() || endsWithSlash) {
            out.put((byte) '/');
        }
        byte[] normal = new byte[out.position()];
        out.flip().get(normal);
        return normal;
    }

    private static @Nullable String utf8(byte @Nullable [] bytes) {
        if (bytes == null) {
            return null;
        }
        try {
            return StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT)
                .decode(ByteBuffer.wrap(bytes))
                .toString();
        }
        catch (CharacterCodingException ex) {
            return null;
        }
    }

}
