package dev.cachegateway.gateway.server;

import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http.DefaultLastHttpContent;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpRequest;

/**
 * A request held back until its body is complete, with its body so far, no larger than a
 * limit.
 */
final class HeldRequest {

    private final HttpRequest request;

    private final CompositeByteBuf body;

    private final long maxBodySize;

    HeldRequest(HttpRequest request, ByteBufAllocator allocator, long maxBodySize) {
        this.request = request;
        this.body = allocator.compositeBuffer(Integer.MAX_VALUE);
        this.maxBodySize = maxBodySize;
    }

    /**
     * Adds a part of the body, and takes it over; false if the body would then be larger
     * than the limit.
     */
    boolean add(HttpContent part) {
        try {
            if (body.readableBytes() + (long) part.content().readableBytes() > maxBodySize) {
                return false;
            }
            body.addComponent(true, part.content().retain());
            return true;
        }
        finally {
            part.release();
        }
    }

    /**
     * Lets the request on, framed by a Content-Length, and its body as its one last part.
     * Trailers are not passed on: the gateway forwards none, and a length in them must
     * not count.
     */
    void forward(ChannelHandlerContext ctx) {
        request.headers().remove(HttpHeaderNames.TRANSFER_ENCODING);
        request.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
        ctx.fireChannelRead(request);
        ctx.fireChannelRead(new DefaultLastHttpContent(body));
    }

    /** Drops the body read so far, and gives back the request, to be refused. */
    HttpRequest discard() {
        body.release();
        return request;
    }

}
