package dev.cachegateway.gateway.server;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;

/**
 * Sits right behind the server's HTTP decoder and lets a request on only once it is sure
 * where the request ends. One whose length is ambiguous ({@link FramingRules}) is refused
 * there, and so is one whose body turns out malformed or too large: a request with a body
 * is held until its body is complete, so that a bad chunk can never reach a backend after
 * the request's start already has. The body goes on with a Content-Length, as one piece.
 * A request without a body passes at once.
 *
 * <p>
 * A refusal marks the request as one the decoder failed on, so that Reactor Netty answers
 * it in turn, after any answers still owed on the connection, with
 * {@code Connection: close}, and closes; this guard gives that answer its JSON body and
 * drops everything the connection sends after it.
 */
final class RequestFramingGuard extends ChannelDuplexHandler {

    static final String NAME = "gateway.requestFramingGuard";

    private final long maxBodySize;

    /** A request whose body is still arriving. */
    private @Nullable HeldRequest held;

    /** Set once a request on this connection was refused: nothing after it is read. */
    private @Nullable Rejection rejection;

    RequestFramingGuard(long maxBodySize) {
        this.maxBodySize = maxBodySize;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (rejection != null) {
            ReferenceCountUtil.release(msg);
        }
        else if (msg instanceof HttpRequest request) {
            onRequest(ctx, request);
        }
        else if (msg instanceof HttpContent content && held != null) {
            onContent(ctx, held, content);
        }
        else {
            ctx.fireChannelRead(msg);
        }
    }

    private void onRequest(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            rejection = Rejection.UNREADABLE;
            ctx.fireChannelRead(request);
            return;
        }
        String problem = FramingRules.problem(request);
        if (problem != null) {
            refuse(ctx, request, new Rejection(HttpResponseStatus.BAD_REQUEST, problem));
        }
        else if (!FramingRules.hasBody(request)) {
            ctx.fireChannelRead(request);
        }
        else if (HttpUtil.getContentLength(request, 0L) > maxBodySize) {
            refuse(ctx, request, Rejection.TOO_LARGE);
        }
        else {
            held = new HeldRequest(request, ctx.alloc(), maxBodySize);
            if (HttpUtil.is100ContinueExpected(request)) {
                // Reactor Netty would say 100 Continue only once the request reached it,
                // after its body.
                request.headers().remove(HttpHeaderNames.EXPECT);
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE,
                        Unpooled.EMPTY_BUFFER));
            }
        }
    }

    private void onContent(ChannelHandlerContext ctx, HeldRequest request, HttpContent content) {
        if (content.decoderResult().isFailure()) {
            content.release();
            held = null;
            refuse(ctx, request.discard(),
                    new Rejection(HttpResponseStatus.BAD_REQUEST, "The chunked body is malformed"));
        }
        else if (!request.add(content)) {
            held = null;
            refuse(ctx, request.discard(), Rejection.TOO_LARGE);
        }
        else if (content instanceof LastHttpContent) {
            held = null;
            request.forward(ctx);
        }
    }

    private void refuse(ChannelHandlerContext ctx, HttpRequest request, Rejection why) {
        rejection = why;
        request.setDecoderResult(DecoderResult.failure(new DecoderException(why.reason())));
        ctx.fireChannelRead(request);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        if (held != null && !ctx.channel().config().isAutoRead()) {
            // Nothing downstream has seen the request yet, so nothing else asks for the
            // rest of its body.
            ctx.read();
        }
        ctx.fireChannelReadComplete();
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        Rejection why = rejection;
        if (why != null && msg instanceof FullHttpResponse answer && answer.status().code() >= 400
                && !answer.content().isReadable() && !HttpUtil.isKeepAlive(answer)) {
            // Reactor Netty's answer to a request it was told the decoder failed on: the
            // same, with a body.
            FullHttpResponse json = why.answer(answer.status(), answer.protocolVersion());
            json.headers().set(HttpHeaderNames.CONNECTION, "close");
            answer.release();
            ctx.write(json, promise);
            return;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (held != null) {
            held.discard();
            held = null;
        }
    }

}
