package dev.cachegateway.gateway.backend;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import org.jspecify.annotations.Nullable;

/**
 * Closes a backend connection whose answer did not end where its framing said, as nginx
 * does, so that the surplus can never be read as the answer to the next request sent over
 * it. Bytes past an answer's end, such as a body longer than its {@code Content-Length}
 * or a second answer to one request, are decoded into messages that arrive after the
 * answer's last part; so do bytes that arrive while no request is waiting for an answer.
 *
 * <p>
 * The last part of an answer is held back until the end of the read it came in, so that
 * anything decoded after it in the same read is seen before the connection goes back to
 * the pool. Bytes that do not make a message (junk without a line end) stay in the
 * decoder; {@link RawBytes}, in front of the decoder, sees them left over. What still
 * slips through (junk after a head split over two reads) makes the next answer fail to
 * decode: see {@link ReusedConnectionRetryFilter}.
 */
final class ResponseFramingGuard extends ChannelDuplexHandler {

    static final String NAME = "gateway.responseFramingGuard";

    private boolean awaitingAnswer;

    private @Nullable LastHttpContent heldEnd;

    private boolean surplus;

    /**
     * The handler that goes in front of the decoder, to see the raw bytes this guard's
     * answers are made of.
     */
    ChannelInboundHandlerAdapter rawBytes() {
        return new RawBytes();
    }

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
            // Closed first, so that the held end completes an answer on a connection that
            // is no longer reusable.
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
        if (surplus) {
            ctx.close();
        }
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

    /**
     * Sees each read's bytes go into the decoder. Bytes while no answer is awaited are
     * surplus at once. When an answer ended in a read and the decoder left some of its
     * bytes unread, they are surplus too: the decoder works on the read's own buffer when
     * it holds nothing from before, so the bytes it did not take are still readable.
     */
    private final class RawBytes extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!(msg instanceof ByteBuf bytes)) {
                ctx.fireChannelRead(msg);
                return;
            }
            if (!awaitingAnswer && heldEnd == null) {
                bytes.release();
                ctx.close();
                return;
            }
            bytes.retain();
            try {
                ctx.fireChannelRead(bytes);
                if (heldEnd != null && bytes.isReadable()) {
                    surplus = true;
                }
            }
            finally {
                bytes.release();
            }
        }

    }

}
