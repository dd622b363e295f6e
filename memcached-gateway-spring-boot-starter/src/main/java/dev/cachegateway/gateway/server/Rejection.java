package dev.cachegateway.gateway.server;

import java.nio.charset.StandardCharsets;

import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import org.jspecify.annotations.Nullable;

/**
 * Why a request was refused before it reached any route, and the answer that says so:
 * JSON of the shape of the gateway's other errors ({@code status}, {@code error}) and the
 * reason, which names no internals.
 *
 * @param status the status to answer, or null to keep the one Reactor Netty chose (431
 * for headers too large)
 * @param reason one sentence for the client
 */
record Rejection(@Nullable HttpResponseStatus status, String reason) {

    /** A request Netty's decoder could not parse. */
    static final Rejection UNREADABLE = new Rejection(null, "The request could not be read");

    static final Rejection TOO_LARGE = new Rejection(HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE,
            "The request body is larger than the gateway accepts");

    FullHttpResponse answer(HttpResponseStatus chosen, HttpVersion version) {
        HttpResponseStatus answered = status != null ? status : chosen;
        String json = "{\"status\":" + answered.code() + ",\"error\":\"" + answered.reasonPhrase() + "\",\"message\":\""
                + reason + "\"}";
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        FullHttpResponse answer = new DefaultFullHttpResponse(version, answered, Unpooled.wrappedBuffer(bytes));
        answer.headers().set(HttpHeaderNames.CONTENT_TYPE, "application/json");
        answer.headers().setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
        return answer;
    }
}
