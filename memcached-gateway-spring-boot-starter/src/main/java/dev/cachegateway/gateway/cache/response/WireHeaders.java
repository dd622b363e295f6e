package dev.cachegateway.gateway.cache.response;

import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.util.AsciiString;
import org.jspecify.annotations.Nullable;
import reactor.netty.http.server.HttpServerResponse;

import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.AbstractServerHttpResponse;
import org.springframework.http.server.reactive.ServerHttpResponse;
import org.springframework.util.ClassUtils;

/**
 * An answer's headers, and the same headers as Netty holds them, made at the first write
 * and kept for every later one: the hits on one item in one second send the same headers
 * (the item's reading keeps them), and so do the requests that share one backend answer.
 * Copied onto Reactor Netty's headers, a block made once skips what each write would
 * otherwise do header by header: the copy of each list, Netty's check of each name and
 * value, and, as {@link AsciiString}s, the encoding of each character as the answer goes
 * out (nginx, likewise, keeps a hit's headers as bytes).
 */
public final class WireHeaders {

    // Spellings as Spring's HttpHeaders writes them, not Netty's lower-case names, so
    // that the bytes sent are the same either way.
    private static final AsciiString CONTENT_LENGTH = AsciiString.cached(HttpHeaders.CONTENT_LENGTH);

    private static final AsciiString DATE = AsciiString.cached(HttpHeaders.DATE);

    // Package-private in Spring; another response, such as a test's mock, may have no
    // native one to give. Were it gone, every answer would take the headers one by one.
    private static final @Nullable Class<?> REACTOR_RESPONSE = reactorResponse();

    private final HttpHeaders headers;

    private final boolean gzip;

    private volatile @Nullable Block block;

    public WireHeaders(HttpHeaders headers) {
        this.headers = headers;
        this.gzip = "gzip".equalsIgnoreCase(headers.getFirst(HttpHeaders.CONTENT_ENCODING));
    }

    /** The headers, as the rest of the cache reads them. */
    public HttpHeaders headers() {
        return headers;
    }

    /**
     * Whether the body is gzip-coded: asked of every hit before it is answered, and read
     * here once, since each lookup by name in Spring's headers lower-cases it.
     */
    public boolean gzip() {
        return gzip;
    }

    /**
     * Sets the answer's headers that a 200 carries on {@code response}, with a
     * {@code Date} where they have none and the length of the body, as
     * {@link CapturedResponseWriter} would set them one by one; false, with nothing set,
     * where the response cannot take them so.
     */
    boolean addTo(ServerHttpResponse response, int contentLength) {
        io.netty.handler.codec.http.@Nullable HttpHeaders target = emptyNettyHeaders(response);
        if (target == null) {
            return false;
        }
        Block made = block;
        if (made == null) {
            made = Block.of(headers);
            block = made;
        }
        if (!made.usable()) {
            return false;
        }
        // Netty copies a block of the same kind entry by entry, unchecked: it was
        // checked as it was made.
        target.add(made.headers());
        if (!made.dated()) {
            target.add(DATE, CurrentDate.now());
        }
        target.addInt(CONTENT_LENGTH, contentLength);
        return true;
    }

    /**
     * Netty's headers under {@code response}, where they may take a block: the response
     * is Spring's over Reactor Netty's, whose headers are Netty's own, not wrapped by a
     * decorator that may watch its headers, not yet sent, and without a header of its
     * own, so that adding the answer's equals setting each of them.
     */
    private static io.netty.handler.codec.http.@Nullable HttpHeaders emptyNettyHeaders(ServerHttpResponse response) {
        if (response.getClass() == REACTOR_RESPONSE && !response.isCommitted()
                && ((AbstractServerHttpResponse) response).getNativeResponse() instanceof HttpServerResponse netty) {
            io.netty.handler.codec.http.HttpHeaders nettyHeaders = netty.responseHeaders();
            return onlyPreset(nettyHeaders) ? nettyHeaders : null;
        }
        return null;
    }

    private static @Nullable Class<?> reactorResponse() {
        String name = "org.springframework.http.server.reactive.ReactorServerHttpResponse";
        ClassLoader loader = WireHeaders.class.getClassLoader();
        return ClassUtils.isPresent(name, loader) ? ClassUtils.resolveClassName(name, loader) : null;
    }

    // Reactor Netty starts each answer chunked, and sends it with a length where one is
    // set.
    private static boolean onlyPreset(io.netty.handler.codec.http.HttpHeaders headers) {
        return headers.isEmpty() || headers.size() == 1 && headers.contains(HttpHeaderNames.TRANSFER_ENCODING);
    }

    // usable: false where the answer names a transfer coding of its own, which setting
    // would put in place of Reactor Netty's, and adding beside it; or where Netty's
    // checks refuse one of its headers, which a server told to skip them sends, one by
    // one. A backend answer shared whole may still have its Content-Length, which the
    // writer sets again, last.
    private record Block(io.netty.handler.codec.http.HttpHeaders headers, boolean dated, boolean usable) {

        static Block of(HttpHeaders answer) {
            // The factory Reactor Netty makes its headers with, unless told not to check
            // them: with the same checks, Netty's copy skips them.
            io.netty.handler.codec.http.HttpHeaders block = DefaultHttpHeadersFactory.headersFactory().newHeaders();
            try {
                answer.forEach((name, values) -> {
                    if (!CapturedResponseWriter.internal(name) && !name.equalsIgnoreCase(HttpHeaders.CONTENT_LENGTH)) {
                        AsciiString asciiName = AsciiString.of(name);
                        for (String value : values) {
                            block.add(asciiName, AsciiString.of(value));
                        }
                    }
                });
            }
            catch (IllegalArgumentException refused) {
                return new Block(block, false, false);
            }
            return new Block(block, answer.containsHeader(HttpHeaders.DATE),
                    !answer.containsHeader(HttpHeaders.TRANSFER_ENCODING));
        }

    }

}
