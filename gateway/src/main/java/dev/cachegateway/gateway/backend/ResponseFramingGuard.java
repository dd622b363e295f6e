package dev.cachegateway.gateway.backend;

import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;

/**
 * Closes a backend connection whose answer did not end where its framing said, as nginx does, so that the surplus
 * can never be read as the answer to the next request sent over it. Bytes past an answer's end, such as a body
 * longer than its {@code Content-Length} or a second answer to one request, are decoded into messages that arrive
 * after the answer's last part; so do bytes that arrive while no request is waiting for an answer.
 *
 * <p>The last part of an answer is held back until the end of the read it came in, so that anything decoded after
 * it in the same read is seen before the connection goes back to the pool. Junk without a line end stays in the
 * decoder and is seen only with the next answer, which then fails to decode: see {@link ReusedConnectionRetryFilter}.
 */
final class ResponseFramingGuard extends ChannelDuplexHandler {

    static final String NAME = "gateway.responseFramingGuard";

    private boolean awaitingAnswer;

    private LastHttpContent heldEnd;

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof HttpRequest) {
            awaitingAnswer = true;
        }
        ctx.write(msg, promise);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (!(msg instanceof HttpObject)) {
            ctx.fireChannelRead(msg);
            return;
        }
        if (!awaitingAnswer || heldEnd != null) {
            // Closed first, so that the held end completes an answer on a connection that is no longer reusable.
            ReferenceCountUtil.release(msg);
            ctx.close();
            releaseHeldEnd(ctx);
            return;
        }
        if (msg instanceof LastHttpContent end) {
            heldEnd = end;
            return;
        }
        ctx.fireChannelRead(msg);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        releaseHeldEnd(ctx);
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseHeldEnd(ctx);
        super.channelInactive(ctx);
    }

    private void releaseHeldEnd(ChannelHandlerContext ctx) {
        if (heldEnd != null) {
            LastHttpContent end = heldEnd;
            heldEnd = null;
            awaitingAnswer = false;
            ctx.fireChannelRead(end);
        }
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        if (heldEnd != null) {
            ReferenceCountUtil.release(heldEnd);
            heldEnd = null;
        }
    }
}
